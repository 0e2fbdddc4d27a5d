package panel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"time"

	"github.com/disintegration/imaging"
	"gocloud.dev/gcerrors"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// fileView is one file shown as a thumbnail (or a document icon) with its
// download and its data.
type fileView struct {
	ID, Handle, URL, MediaType, Name string
	Image, Deletable                 bool
	CreatedAt                        time.Time
	// Label names a file that is not an image by its type (PDF, SVG).
	Label string
	// Pages is a PDF's page count when its data says it; 0 otherwise.
	Pages int
	// Size is the file's size for people (1.2 MB); "" for a registered URL.
	Size string
	// Data is the file's data (the task's output metadata), indented; ""
	// when it has none.
	Data string
}

// thumbTypes are the stored types a thumbnail is made of.
var thumbTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"image/bmp": true}

func viewFile(f *models.File, base string) fileView {
	v := fileView{
		ID:        f.ID,
		Handle:    f.Handle(),
		URL:       f.URL(base),
		MediaType: f.MediaType,
		Name:      f.Handle(),
		Image:     thumbTypes[f.MediaType] && f.BlobKey != "",
		Deletable: f.Kind() == "art",
		CreatedAt: f.CreatedAt,
		Label:     docLabel(f.MediaType),
		Data:      indented(f.Data),
	}
	if f.BlobKey != "" {
		v.Size = byteSize(f.Size)
	}
	if v.Data == "{}" {
		v.Data = ""
	}
	if f.MediaType == "application/pdf" {
		var d struct {
			Pages int `json:"pages"`
		}
		if json.Unmarshal([]byte(f.Data), &d) == nil {
			v.Pages = d.Pages
		}
	}
	return v
}

// docLabel names a file type for its icon: PDF, SVG, JSON.
func docLabel(media string) string {
	switch media {
	case "":
		return "URL"
	case "image/svg+xml":
		return "SVG"
	}
	_, sub, ok := strings.Cut(media, "/")
	if !ok {
		return "FILE"
	}
	sub, _, _ = strings.Cut(sub, ";")
	if i := strings.LastIndexAny(sub, ".+-"); i >= 0 {
		sub = sub[i+1:]
	}
	return strings.ToUpper(sub)
}

// byteSize writes n bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// indented is a JSON text indented for reading; text that is not JSON
// comes back as it is.
func indented(s string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}

// thumbSide is the longest side of a thumbnail, in pixels: twice the
// largest size the panel shows one at, for sharp screens.
const thumbSide = 320

// thumbCache is how long a browser keeps a thumbnail: a file's bytes never
// change under its id.
const thumbCache = "private, max-age=604800, immutable"

// thumb answers a small PNG copy of one of the user's image files, at most
// thumbSide a side, made on first request and kept in the bucket beside
// the file; the panel never sends a 2048-px original to a listing.
func (p *panel) thumb(w http.ResponseWriter, r *http.Request, u *models.User) {
	f, err := models.UserFile(r.Context(), p.d.DB, u.ID, r.PathValue("id"))
	if errors.Is(err, models.ErrNotFound) || (err == nil && (!thumbTypes[f.MediaType] || f.BlobKey == "")) {
		http.NotFound(w, r)
		return
	}
	if err != nil || p.d.Blob == nil {
		p.fail(w, errors.Join(err, errors.New("no bucket")))
		return
	}
	key := "thumbs/" + f.ID + ".png"
	small, err := p.d.Blob.ReadAll(r.Context(), key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		small, err = p.makeThumb(r, f, key)
	}
	if err != nil {
		p.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", thumbCache)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(small)
}

// makeThumb scales file f down to a thumbnail and stores it at key.
func (p *panel) makeThumb(r *http.Request, f *models.File, key string) ([]byte, error) {
	full, err := p.d.Blob.ReadAll(r.Context(), f.BlobKey)
	if err != nil {
		return nil, err
	}
	img, err := imagefile.Decode(full)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	small := imaging.Clone(img)
	if b.Dx() > thumbSide || b.Dy() > thumbSide {
		small = imaging.Fit(img, thumbSide, thumbSide, imaging.Lanczos)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, small); err != nil {
		return nil, err
	}
	if err := p.d.Blob.WriteAll(r.Context(), key, out.Bytes(), nil); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
