package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"gocloud.dev/blob"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
)

const (
	// maxExternalID is the length bound of external_id, in characters.
	maxExternalID = 100
	// maxSourceURL bounds a registered URL, in bytes.
	maxSourceURL = 2048
	// sniffLen is how many leading bytes decide an upload's media type.
	sniffLen = 512
	// maxFileName bounds a kept upload name, in bytes.
	maxFileName = 255
)

// create answers POST /v1/files: multipart/form-data uploads bytes (part
// file, optional field external_id); a JSON body {"url", "external_id"}
// registers a public https URL. The Idempotency-Key header is ignored:
// registering is idempotent on the URL, an upload always makes a new file.
func (h *fileHandlers) create(c *gin.Context) {
	ct := c.GetHeader("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "multipart/form-data":
		h.upload(c)
	case middleware.JSONMediaType(ct):
		h.register(c)
	default:
		middleware.Fail(
			c,
			apierr.New(
				apierr.UnsupportedMediaType,
				"Upload bytes as multipart/form-data with a part named file, or register a URL with a JSON body {\"url\": "+
					"\"https://…\"}.",
			),
		)
	}
}

// upload stores the file part's bytes at uploads/<id> and writes the row.
func (h *fileHandlers) upload(c *gin.Context) {
	mr, err := c.Request.MultipartReader()
	if err != nil {
		middleware.Fail(
			c,
			apierr.New(
				apierr.MalformedRequest,
				"The multipart body cannot be read; send Content-Type: multipart/form-data with its boundary.",
			),
		)
		return
	}
	f := models.File{ID: models.NewID(""), UserID: middleware.IdentityOf(c).User.ID, Data: "null"}
	f.BlobKey = "uploads/" + f.ID
	stored := false
	done := false
	defer func() {
		if stored && !done {
			_ = h.blob.Delete(context.WithoutCancel(c.Request.Context()), f.BlobKey)
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			middleware.Fail(c, bodyReadError(c, err))
			return
		}
		switch name := part.FormName(); name {
		case "file":
			if stored {
				middleware.Fail(c, apierr.New(apierr.InvalidRequest, "Send one file per request.").WithField("file"))
				return
			}
			f.Name = uploadName(part.FileName())
			f.MediaType, f.Size, err = h.store(c, f.BlobKey, part)
			if err != nil {
				middleware.Fail(c, err)
				return
			}
			stored = true
		case "external_id":
			v, err := io.ReadAll(io.LimitReader(part, 4*maxExternalID+1))
			if err != nil {
				middleware.Fail(c, bodyReadError(c, err))
				return
			}
			if err := checkExternalID(string(v)); err != nil {
				middleware.Fail(c, err)
				return
			}
			f.ExternalID = string(v)
		case "":
			middleware.Fail(c, apierr.New(apierr.MalformedRequest, "Every multipart part needs a form-data name."))
			return
		default:
			middleware.Fail(
				c,
				apierr.Newf(apierr.FieldNotAccepted, "An upload takes the parts file and external_id, not %q.", name).
					WithField(name),
			)
			return
		}
	}
	if !stored {
		middleware.Fail(
			c,
			apierr.New(apierr.InvalidRequest, "Send the bytes in a multipart part named file.").WithField("file"),
		)
		return
	}
	f.Data = imageSizeData(c.Request.Context(), h.blob, f.BlobKey)
	if err := models.CreateUpload(c.Request.Context(), h.db, &f, h.now()); err != nil {
		middleware.Fail(c, err)
		return
	}
	done = true
	c.JSON(http.StatusCreated, h.uploadRecord(&f))
}

// store streams an upload into the blob store at key: the media type is
// read from the leading bytes (415 unless in limits.upload.media_types),
// and more than limits.upload.max_bytes aborts the write (413).
func (h *fileHandlers) store(c *gin.Context, key string, r io.Reader) (string, int64, error) {
	lim := contract.DefaultLimits().Upload
	src := &readTracker{r: r}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(src, head)
	switch {
	case src.err != nil: // io.ReadFull cannot tell a short file from a broken body
		return "", 0, bodyReadError(c, src.err)
	case errors.Is(err, io.EOF):
		return "", 0, apierr.New(apierr.InvalidRequest, "The file is empty.").WithField("file")
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return "", 0, bodyReadError(c, err)
	}
	head = head[:n]
	media, known := detectMediaType(head)
	if !known || !slices.Contains(lim.MediaTypes, media) {
		return "", 0, apierr.Newf(
			apierr.UnsupportedMediaType,
			"The file reads as %s; uploads must be PNG, JPEG, WebP, GIF, BMP or PDF.",
			media,
		)
	}
	if h.blob == nil {
		return "", 0, errors.New("upload: no blob store configured")
	}
	ctx, cancel := context.WithCancel(c.Request.Context())
	defer cancel()
	w, err := h.blob.NewWriter(ctx, key, &blob.WriterOptions{ContentType: media})
	if err != nil {
		return "", 0, fmt.Errorf("open blob %s: %w", key, err)
	}
	size, err := io.Copy(w, io.MultiReader(bytes.NewReader(head), io.LimitReader(src, lim.MaxBytes-int64(n)+1)))
	switch {
	case src.err != nil:
		err = bodyReadError(c, src.err)
	case err != nil:
		err = fmt.Errorf("write blob %s: %w", key, err)
	case size > lim.MaxBytes:
		c.Header("Connection", "close")
		err = apierr.Newf(apierr.FileTooLarge, "The file is over limits.upload.max_bytes (%d bytes).", lim.MaxBytes)
	}
	if err != nil {
		cancel() // a cancelled context aborts the write: nothing is stored
		_ = w.Close()
		return "", 0, err
	}
	if err := w.Close(); err != nil {
		return "", 0, fmt.Errorf("store blob %s: %w", key, err)
	}
	return media, size, nil
}

// readTracker remembers the first read error other than io.EOF, so a
// broken or capped request body is told apart from a failing blob write.
type readTracker struct {
	r   io.Reader
	err error
}

func (t *readTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && t.err == nil {
		t.err = err
	}
	return n, err
}

// bodyReadError is the answer to a request body that stopped: over the
// upload cap of the transport (413 file_too_large), or broken (400).
func bodyReadError(c *gin.Context, err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		c.Header("Connection", "close")
		return apierr.Newf(
			apierr.FileTooLarge,
			"The upload is over limits.upload.max_bytes (%d bytes).",
			contract.DefaultLimits().Upload.MaxBytes,
		)
	}
	return apierr.New(apierr.MalformedRequest, "The multipart body could not be read.")
}

// detectMediaType reads a media type from a file's leading bytes. known is
// true only for the types uploads accept, each checked by its magic number;
// anything else is named by http.DetectContentType for the message.
func detectMediaType(b []byte) (media string, known bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", true
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg", true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif", true
	case len(b) >= 16 && string(b[:4]) == "RIFF" && string(b[8:15]) == "WEBPVP8":
		return "image/webp", true
	case isBMP(b):
		return "image/bmp", true
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "application/pdf", true
	}
	media, _, err := mime.ParseMediaType(http.DetectContentType(b))
	if err != nil || media == "image/bmp" {
		// DetectContentType takes any "BM…" for a bitmap; ours did not.
		media = "application/octet-stream"
	}
	return media, false
}

// isBMP checks the "BM" signature and a known DIB header size, so text
// that happens to start with "BM" is not taken for a bitmap.
func isBMP(b []byte) bool {
	if len(b) < 18 || b[0] != 'B' || b[1] != 'M' {
		return false
	}
	switch binary.LittleEndian.Uint32(b[14:18]) {
	case 12, 16, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// uploadName is the file name an upload keeps: the last element of the
// part's filename (a browser or client may send a path, with either
// slash), without control characters, Unicode format characters (a
// right-to-left override that would disguise the extension) or surrounding
// spaces, and at most maxFileName bytes of whole characters. "", "." and
// ".." keep no name.
func uploadName(raw string) string {
	raw = strings.ToValidUTF8(raw, "")
	if i := strings.LastIndexAny(raw, `/\`); i >= 0 {
		raw = raw[i+1:]
	}
	raw = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, raw)
	for len(raw) > maxFileName {
		_, size := utf8.DecodeLastRuneInString(raw)
		raw = raw[:len(raw)-size]
	}
	raw = strings.TrimSpace(raw)
	if raw == "." || raw == ".." {
		return ""
	}
	return raw
}

// checkExternalID validates the caller's own id of a file: at most 100
// characters of printable UTF-8.
func checkExternalID(s string) error {
	bad := func(msg string) error { return apierr.New(apierr.InvalidRequest, msg).WithField("external_id") }
	if !utf8.ValidString(s) {
		return bad("external_id must be UTF-8 text.")
	}
	if utf8.RuneCountInString(s) > maxExternalID {
		return bad(fmt.Sprintf("external_id is at most %d characters.", maxExternalID))
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return bad("external_id must not hold control characters.")
		}
	}
	return nil
}

// register records a public https URL once per account: every call answers
// 201, the same URL again with the same handle.
func (h *fileHandlers) register(c *gin.Context) {
	body, err := middleware.ReadJSONBody(c, contract.DefaultLimits().Request.MaxBodyBytes)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		middleware.Fail(
			c,
			apierr.New(apierr.MalformedRequest, "The body must be a JSON object such as {\"url\": \"https://…\"}."),
		)
		return
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name != "url" && name != "external_id" {
			middleware.Fail(
				c,
				apierr.Newf(apierr.FieldNotAccepted, "Registering a URL takes url and external_id, not %q.", name).
					WithField(name),
			)
			return
		}
	}
	var src string
	if raw, ok := fields["url"]; !ok || string(raw) == "null" {
		middleware.Fail(
			c,
			apierr.New(apierr.InvalidRequest, "url is required: the public https:// address of the file.").
				WithField("url"),
		)
		return
	} else if json.Unmarshal(raw, &src) != nil || src == "" {
		middleware.Fail(c, apierr.New(apierr.InvalidRequest, "url must be a non-empty string.").WithField("url"))
		return
	}
	var ext string
	if raw, ok := fields["external_id"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &ext) != nil {
			middleware.Fail(
				c,
				apierr.New(apierr.InvalidRequest, "external_id must be a string.").WithField("external_id"),
			)
			return
		}
		if err := checkExternalID(ext); err != nil {
			middleware.Fail(c, err)
			return
		}
	}
	if err := h.checkSourceURL(c, src); err != nil {
		middleware.Fail(c, err)
		return
	}
	f, _, err := models.RegisterURL(
		c.Request.Context(),
		h.db,
		&models.File{ID: models.NewID(""), UserID: middleware.IdentityOf(c).User.ID, SourceURL: src,
			ExternalID: ext, Data: "null"},
		h.now(),
	)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, h.uploadRecord(f))
}

// checkSourceURL refuses a URL that is not https (invalid_request) or whose
// host is or resolves to a non-public address (image_not_public).
func (h *fileHandlers) checkSourceURL(c *gin.Context, src string) error {
	if len(src) > maxSourceURL {
		return apierr.Newf(apierr.InvalidRequest, "url is at most %d bytes.", maxSourceURL).WithField("url")
	}
	err := outbound.CheckURL(c.Request.Context(), src, h.allowPrivate)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, outbound.ErrNotPublic), errors.Is(err, outbound.ErrUnresolvable):
		return apierr.New(apierr.ImageNotPublic, "The address is not publicly reachable (private, loopback, link-local or "+
			"metadata ranges are refused).").
			WithField("url")
	case errors.Is(err, outbound.ErrNotHTTPS):
		return apierr.New(apierr.InvalidRequest, "url must be an https:// address.").WithField("url")
	default:
		return apierr.New(apierr.InvalidRequest, "url is not a valid https:// address.").WithField("url")
	}
}
