package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
)

// fileCSP confines a stored file opened in a browser: no script, no
// requests, a unique origin. Uploads are caller bytes (a GIF can also be
// HTML), so they must never run as the API's origin.
const fileCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// inlineTypes are the media types a browser may show in place; every other
// stored file (PDF, SVG, JSON, unknown bytes) is downloaded.
var inlineTypes = map[string]bool{
	"image/png":  true,
	"image/jpeg": true,
	"image/gif":  true,
	"image/webp": true,
	"image/bmp":  true,
}

// blobDownload serves a file's bytes at its public URL, without a key. The
// type is the one stored when the file was made (read from its bytes for an
// upload), never one taken from the URL's extension.
func blobDownload(d *Deps) gin.HandlerFunc {
	return func(c *gin.Context) {
		name := c.Param("blob")
		id := strings.TrimSuffix(name, path.Ext(name))
		f, err := models.FileByID(c.Request.Context(), d.DB, id)
		if errors.Is(err, models.ErrNotFound) || (err == nil && f.BlobKey == "") {
			// A registered URL keeps no bytes here: its url is its source.
			middleware.Fail(c, apierr.New(apierr.FileNotFound, ""))
			return
		}
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		r, ok := openBlob(c, d, f.BlobKey)
		if !ok {
			return
		}
		defer r.Close()
		fileHeaders(c.Writer.Header(), f)
		c.Header("Content-Length", strconv.FormatInt(f.Size, 10))
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		c.Status(http.StatusOK)
		_, _ = io.Copy(c.Writer, r)
	}
}

// fileHeaders sets the headers that keep a stored file inert: its stored
// type with sniffing off, a sandboxing CSP, and a disposition that shows
// images in place and downloads everything else, named as the upload was
// (else by the URL's last element).
func fileHeaders(h http.Header, f *models.File) {
	media := f.MediaType
	if media == "" {
		media = "application/octet-stream"
	}
	disposition := "attachment"
	if inlineTypes[media] {
		disposition = "inline"
	}
	h.Set("Content-Type", media)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", fileCSP)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": downloadName(f)}))
}

// downloadName is the file name a download is saved under: an upload's
// own name, with the stored type's extension added when the name ends in
// another (page.html read as a GIF saves as page.html.gif, never as a page
// a browser would open as HTML); else the URL's last element.
func downloadName(f *models.File) string {
	own := path.Base(f.URL(""))
	if f.Name == "" {
		return own
	}
	ext := path.Ext(own)
	got := strings.ToLower(path.Ext(f.Name))
	if got == ext || (ext == ".jpg" && got == ".jpeg") {
		return f.Name
	}
	return f.Name + ext
}

// engineInput serves a model server the service's copy of a caller's file:
// the blob the URL's signed grant names, until the grant expires. Anything
// else — a grant not signed by the service's key, of another type, for
// another blob, or expired — is 404, as a file that is not there.
func engineInput(d *Deps) gin.HandlerFunc {
	return func(c *gin.Context) {
		g, ok := engineGrant(d, c.Param("grant"), d.now())
		if !ok {
			middleware.Fail(c, apierr.New(apierr.FileNotFound, ""))
			return
		}
		r, ok := openBlob(c, d, g.Key)
		if !ok {
			return
		}
		defer r.Close()
		c.Header("Content-Type", g.MediaType)
		c.Header("X-Content-Type-Options", "nosniff")
		c.Header("Content-Security-Policy", fileCSP)
		c.Header("Cache-Control", "private, no-store")
		c.Header("Content-Length", strconv.FormatInt(r.Size(), 10))
		c.Status(http.StatusOK)
		_, _ = io.Copy(c.Writer, r)
	}
}

// engineGrant is the grant of an engine input URL that holds at now.
func engineGrant(d *Deps, compact string, now time.Time) (contract.EngineInput, bool) {
	var g contract.EngineInput
	if d.Signer == nil {
		return g, false
	}
	j, err := signer.ParseCompact(compact)
	if err != nil {
		return g, false
	}
	payload, err := signer.VerifyJWS(d.Signer.JWKS(), j)
	if err != nil {
		return g, false
	}
	var h struct {
		Typ string `json:"typ"`
	}
	raw, err := base64.RawURLEncoding.DecodeString(j.Protected)
	if err != nil || json.Unmarshal(raw, &h) != nil || h.Typ != contract.EngineInputType {
		return g, false
	}
	if json.Unmarshal(payload, &g) != nil || !strings.HasPrefix(g.Key, contract.EngineInputPrefix) ||
		now.Unix() >= g.Expires {
		return g, false
	}
	return g, true
}

// openBlob opens the stored blob key, or answers file_not_found when the
// store has none (or the store's error) and false.
func openBlob(c *gin.Context, d *Deps, key string) (*blob.Reader, bool) {
	r, err := d.Blob.NewReader(c.Request.Context(), key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		middleware.Fail(c, apierr.New(apierr.FileNotFound, ""))
		return nil, false
	}
	if err != nil {
		middleware.Fail(c, err)
		return nil, false
	}
	return r, true
}
