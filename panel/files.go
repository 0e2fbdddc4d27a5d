package panel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"maps"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/disintegration/imaging"
	"go.uber.org/zap"
	"gocloud.dev/gcerrors"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// fileView is one file shown as a thumbnail (or a document icon) with its
// download and its data.
type fileView struct {
	ID, Handle, URL, MediaType, Name string
	Image, Deletable                 bool
	// PDF says the thumbnail is a PDF's icon with its page count.
	PDF       bool
	CreatedAt time.Time
	// Label names a file that is not an image by its type (PDF, SVG).
	Label string
	// Pages is a PDF's page count when its data says it; 0 otherwise.
	Pages int
	// Width and Height are an image's pixels when its data says them (an
	// upload's always does); 0 otherwise. Its card sizes the image's box
	// from them, so the box has the image's shape before the thumbnail
	// arrives.
	Width, Height int
	// Size is the file's size for people (1.2 MB); "" for a registered URL.
	Size string
	// Data is the file's data (the task's output metadata), indented; ""
	// when it has none.
	Data string
	// Facts are the data's first plain values, "kind: stripes", shown on
	// the card itself.
	Facts []string
}

// maxFacts is how many of a file's data values its card shows.
const maxFacts = 4

// factsOf lists the plain (string, number, boolean) top-level values of a
// file's data in key order, at most maxFacts.
func factsOf(data string) []string {
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber() // a seed of 19 digits stays as written
	if dec.Decode(&m) != nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch v := m[k].(type) {
		case string, json.Number, bool:
			if len(out) < maxFacts {
				out = append(out, fmt.Sprintf("%s: %v", k, v))
			}
		}
	}
	return out
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
		PDF:       f.MediaType == pdfType && f.BlobKey != "",
		Deletable: f.Kind() == "art",
		CreatedAt: f.CreatedAt,
		Label:     docLabel(f.MediaType),
		Data:      indented(f.Data),
		Facts:     factsOf(f.Data),
	}
	if f.BlobKey != "" {
		v.Size = byteSize(f.Size)
	}
	if v.Data == "{}" {
		v.Data = ""
	}
	if f.Name != "" {
		v.Name = f.Name
	}
	var d struct {
		Pages         int `json:"pages"`
		Width, Height int
	}
	if json.Unmarshal([]byte(f.Data), &d) == nil {
		if f.MediaType == pdfType {
			v.Pages = d.Pages
		}
		if v.Image && d.Width > 0 && d.Height > 0 {
			v.Width, v.Height = d.Width, d.Height
		}
	}
	return v
}

// FitWidth is the width in CSS pixels of the image's box at height h:
// the card shows the box (checkered) at the image's own shape while its
// thumbnail loads, never a blank square that changes shape.
func (v fileView) FitWidth(h int) int { return (h*v.Width + v.Height - 1) / v.Height }

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
// thumbSide a side — a PDF's: its first page drawn by pdftoppm when the
// panel has it (smallCopy), else an icon with its page count — made on
// first request and kept in the bucket at the file's ThumbKey (deleted
// with the file); the panel never sends a 2048-px original to a listing.
func (p *panel) thumb(w http.ResponseWriter, r *http.Request, u *models.User) {
	f, err := models.UserFile(r.Context(), p.d.DB, u.ID, r.PathValue("id"))
	if errors.Is(err, models.ErrNotFound) ||
		(err == nil && ((!thumbTypes[f.MediaType] && f.MediaType != pdfType) || f.BlobKey == "")) {
		http.NotFound(w, r)
		return
	}
	if err != nil || p.d.Blob == nil {
		p.fail(w, r, errors.Join(err, errors.New("no bucket")))
		return
	}
	small, media, err := p.smallCopy(r, f)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", media)
	w.Header().Set("Cache-Control", thumbCache)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(small)
}

// smallCopy is file f's thumbnail and its media type: an image scaled
// down; a PDF's first page drawn small when pdftoppm is there and can draw
// it, else the PDF's icon.
func (p *panel) smallCopy(r *http.Request, f *models.File) ([]byte, string, error) {
	if f.MediaType != pdfType {
		small, err := p.cached(r, f.ThumbKey("png"), func() ([]byte, error) { return p.makeThumb(r, f) })
		return small, "image/png", err
	}
	if p.pdftoppm != "" {
		small, err := p.cached(r, f.ThumbKey("png"), func() ([]byte, error) { return p.makePDFPreview(r, f) })
		if err == nil {
			return small, "image/png", nil
		}
		if !errors.Is(err, errNoPreview) {
			return nil, "", err
		}
		p.d.Log.Info("panel: a PDF's first page could not be drawn; its icon is shown",
			zap.String("file", f.ID), zap.Error(err))
	}
	small, err := p.cached(r, f.ThumbKey("svg"), func() ([]byte, error) { return p.makePDFIcon(r, f) })
	return small, "image/svg+xml", err
}

// cached reads the small copy kept at key, making it with build and
// keeping it there on first request.
func (p *panel) cached(r *http.Request, key string, build func() ([]byte, error)) ([]byte, error) {
	small, err := p.d.Blob.ReadAll(r.Context(), key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		if small, err = build(); err == nil {
			err = p.d.Blob.WriteAll(r.Context(), key, small, nil)
		}
	}
	return small, err
}

// makeThumb scales image file f down to a thumbnail.
func (p *panel) makeThumb(r *http.Request, f *models.File) ([]byte, error) {
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
	return out.Bytes(), nil
}

const pdfType = "application/pdf"

// pdfPage finds a page object of a PDF (/Type /Page, never /Pages).
var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// pdfPages is the page count of PDF file f: its data's pages when it says
// them (a tech pack's), else the page objects of its bytes; 0 when
// neither tells (a PDF whose objects are compressed).
func (p *panel) pdfPages(r *http.Request, f *models.File) (int, error) {
	var d struct {
		Pages int `json:"pages"`
	}
	if json.Unmarshal([]byte(f.Data), &d) == nil && d.Pages > 0 {
		return d.Pages, nil
	}
	data, err := p.d.Blob.ReadAll(r.Context(), f.BlobKey)
	if err != nil {
		return 0, err
	}
	return len(pdfPage.FindAllIndex(data, -1)), nil
}

// pdfIcon is a PDF's thumbnail: a page with the type and the page count.
var pdfIcon = template.Must(template.New("pdf").Parse(
	`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" ` +
		`viewBox="0 0 320 320"><rect width="320" height="320" fill="#fafbfc"/>` +
		`<path d="M100 40h90l50 50v190H100z" fill="#fff" stroke="#8c959f" stroke-width="6"/>` +
		`<path d="M190 40v50h50" fill="none" stroke="#8c959f" stroke-width="6"/>` +
		`<rect x="80" y="150" width="130" height="56" rx="8" fill="#cf222e"/>` +
		`<text x="145" y="190" font-family="sans-serif" font-size="34" font-weight="700" fill="#fff" ` +
		`text-anchor="middle">PDF</text>{{if .}}<text x="170" y="256" font-family="sans-serif" font-size="26" ` +
		`fill="#59636e" text-anchor="middle">{{.}} page{{if ne . 1}}s{{end}}</text>{{end}}</svg>`))

// PDF previews are drawn by pdftoppm (poppler), bounded: at most
// pdfPreviewMaxBytes of PDF, pdfPreviewTime to draw, a PNG of at most
// thumbSide a side and pdfPreviewMaxPNG bytes, and pdfPreviewSlots drawn at
// once.
const (
	pdfPreviewMaxBytes = 64 << 20
	pdfPreviewTime     = 10 * time.Second
	pdfPreviewMaxPNG   = 4 << 20
	pdfPreviewSlots    = 2
)

// errNoPreview is a PDF whose first page pdftoppm did not draw: too large,
// unreadable, or too slow. Its icon is shown instead.
var errNoPreview = errors.New("no preview")

// makePDFPreview draws the first page of PDF file f with pdftoppm as a PNG
// fitting thumbSide; errNoPreview when it cannot.
func (p *panel) makePDFPreview(r *http.Request, f *models.File) ([]byte, error) {
	if f.Size > pdfPreviewMaxBytes {
		return nil, fmt.Errorf("%w: %d bytes", errNoPreview, f.Size)
	}
	data, err := p.d.Blob.ReadAll(r.Context(), f.BlobKey)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), pdfPreviewTime)
	defer cancel()
	select {
	case p.pdfSlots <- struct{}{}:
		defer func() { <-p.pdfSlots }()
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: waiting for a slot: %w", errNoPreview, ctx.Err())
	}
	cmd := exec.CommandContext(ctx, p.pdftoppm, "-q", "-f", "1", "-l", "1", "-singlefile", "-png",
		"-scale-to", strconv.Itoa(thumbSide), "-")
	cmd.Stdin = bytes.NewReader(data)
	out := &cappedBuffer{max: pdfPreviewMaxPNG}
	cmd.Stdout = out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: pdftoppm: %w", errNoPreview, err)
	}
	if out.over {
		return nil, fmt.Errorf("%w: more than %d bytes of PNG", errNoPreview, pdfPreviewMaxPNG)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(out.Bytes()))
	if err != nil || cfg.Width > thumbSide || cfg.Height > thumbSide || cfg.Width == 0 || cfg.Height == 0 {
		return nil, fmt.Errorf("%w: pdftoppm drew no %d-px PNG (%v)", errNoPreview, thumbSide, err)
	}
	return out.Bytes(), nil
}

// cappedBuffer keeps what is written up to max bytes and notes when more
// came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(data []byte) (int, error) {
	if b.Len()+len(data) > b.max {
		b.over = true
		return 0, errors.New("output too large")
	}
	return b.Buffer.Write(data)
}

// makePDFIcon draws a PDF's thumbnail with its page count.
func (p *panel) makePDFIcon(r *http.Request, f *models.File) ([]byte, error) {
	pages, err := p.pdfPages(r, f)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err = pdfIcon.Execute(&out, pages)
	return out.Bytes(), err
}
