package panel

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/signintech/gopdf"
	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// A job's outputs are shown as small copies made on demand and cached, never
// as the originals; a PDF shows an icon with its page count; each file's
// data is on the page.
func TestOutputsShowThumbnailsNotOriginals(t *testing.T) {
	t.Parallel()
	bucket := memblob.OpenBucket(nil)
	h, db, u, cookie := signedInPanel(t, func(d *api.Deps) { d.Blob = bucket })
	ctx := context.Background()
	jobID := jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 0, 7, nil, nil)
	img := image.NewNRGBA(image.Rect(0, 0, 2048, 1024))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.NRGBA{A: 255})
	var full bytes.Buffer
	require.NoError(t, png.Encode(&full, img))
	store := func(i int, media string, data []byte, meta string) *models.File {
		f := &models.File{ID: models.NewID(""), UserID: u.ID, JobID: jobID, Index: i, Task: "pattern.stripes",
			MediaType: media, BlobKey: models.NewID("b_"), Size: int64(len(data)), Data: meta,
			CreatedAt: time.Now().UTC()}
		require.NoError(t, bucket.WriteAll(ctx, f.BlobKey, data, nil))
		require.NoError(t, db.Create(f).Error)
		return f
	}
	big := store(0, "image/png", full.Bytes(), `{"kind":"stripes","seed":1795588851700700231}`)
	pdf := store(1, "application/pdf", []byte("%PDF-1.4\n%%EOF\n"), `{"pages":3}`)
	sized := store(2, "image/png", full.Bytes(), `{"width":2048,"height":1024}`)
	for i := 3; i < 6; i++ {
		store(i, "image/png", full.Bytes(), `{}`)
	}

	for range 2 { // made, then read from the bucket
		w := do(h, http.MethodGet, "/app/thumbs/"+big.ID, nil, cookie...)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		require.Equal(t, "image/png", w.Header().Get("Content-Type"))
		require.Contains(t, w.Header().Get("Cache-Control"), "max-age=")
		small, err := png.DecodeConfig(bytes.NewReader(w.Body.Bytes()))
		require.NoError(t, err)
		require.Equal(t, [2]int{thumbSide, thumbSide / 2}, [2]int{small.Width, small.Height}, "scaled to fit, aspect kept")
		require.Less(t, w.Body.Len(), full.Len())
	}
	var doc bytes.Buffer
	sheet := &gopdf.GoPdf{}
	sheet.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	sheet.AddPage()
	sheet.AddPage()
	_, err := sheet.WriteTo(&doc)
	require.NoError(t, err)
	counted := store(6, "application/pdf", doc.Bytes(), `{}`)
	for file, pages := range map[*models.File]string{pdf: "3 pages", counted: "2 pages"} {
		w := do(h, http.MethodGet, "/app/thumbs/"+file.ID, nil, cookie...)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		require.Equal(t, "image/svg+xml", w.Header().Get("Content-Type"))
		require.Contains(t, w.Body.String(), ">PDF<", "a PDF's thumbnail says it is one")
		require.Contains(t, w.Body.String(), pages, "from its data, else counted in its bytes")
	}
	require.Equal(t, http.StatusUnauthorized, do(h, http.MethodGet, "/app/thumbs/"+big.ID, nil).Code)
	other, err := models.CreateUser(ctx, db, "bob@example.com", models.PlanStandard)
	require.NoError(t, err)
	foreign := &models.File{ID: models.NewID(""), UserID: other.ID, MediaType: "image/png", BlobKey: big.BlobKey,
		Size: 1, CreatedAt: time.Now().UTC()}
	require.NoError(t, db.Create(foreign).Error)
	require.Equal(t, http.StatusNotFound, do(h, http.MethodGet, "/app/thumbs/"+foreign.ID, nil, cookie...).Code)

	deleted := do(h, http.MethodDelete, "/v1/account/files/"+counted.Handle(), nil, cookie...)
	require.Equal(t, http.StatusOK, deleted.Code, deleted.Body.String())
	gone, err := bucket.Exists(ctx, counted.ThumbKey("svg"))
	require.NoError(t, err)
	require.False(t, gone, "a deleted file's small copy goes with it")
	kept, err := bucket.Exists(ctx, big.ThumbKey("png"))
	require.NoError(t, err)
	require.True(t, kept, "a thumbnail is made once and kept")

	job := do(h, http.MethodGet, "/app/jobs/"+jobID, nil, cookie...).Body.String()
	require.Contains(t, job, `src="/app/thumbs/`+big.ID+`"`)
	require.NotContains(t, job, `<img src="`+big.URL("http://panel.test"), "the 2048-px original is only a link")
	// While its thumbnail loads, an image of known size shows a box of its
	// shape (2:1, 300 px wide at the frame's 150 px), not a blank square.
	require.Contains(t, job, `<img src="/app/thumbs/`+sized.ID+`" alt="`+sized.Handle()+`" loading="lazy" class="sized" `+
		`width="2048" height="1024" style="aspect-ratio:2048/1024;width:min(100%,300px)">`)
	require.Regexp(t, `<img src="/app/thumbs/`+big.ID+`" alt="[^"]+" loading="lazy">`, job,
		"an image whose data has no size keeps the frame's box")
	require.Contains(t, job, "3 pages", "a PDF shows its page count")
	require.Contains(t, job, "&#34;seed&#34;: 1795588851700700231", "a file's data is shown")
	require.Contains(t, job, "<li>kind: stripes</li><li>seed: 1795588851700700231</li>",
		"its plain values on the card itself")
	// The overview's chart: 130 credits charged today puts the axis's top
	// at the round 200 above it, in quarters, and the day's bar at 65%.
	require.NoError(t, db.Model(&models.Job{}).Where("id = ?", jobID).Update("charged_credits", 130).Error)
	overview := do(h, http.MethodGet, "/app/", nil, cookie...).Body.String()
	require.Contains(t, overview, `<div class="yaxis small muted" aria-hidden="true">`+
		`<span>200</span><span>150</span><span>100</span><span>50</span><span>0</span></div>`)
	require.Contains(t, overview, "(30 days, 130 in all)")
	require.Regexp(t, `<rect x="\d+" y="35" width="8" height="65"><title>\d{4}-\d\d-\d\d: 130 credits</title>`,
		overview, "the day's bar reaches 130 on the axis")
	for _, path := range []string{"/app/jobs", "/app/"} {
		list := do(h, http.MethodGet, path, nil, cookie...).Body.String()
		require.Equal(t, listedOutputs, strings.Count(list, `<img src="/app/thumbs/`), "%s: a row's thumbnails", path)
		require.Contains(t, list, `alt="PDF `+pdf.Handle()+`"`, path)
		require.Contains(t, list, ">+2</a>", "%s: the live outputs not shown are counted", path)
	}
}

// The credits chart's axis counts in round steps a quarter of its top apart,
// the top at or above the busiest day.
func TestChartAxisIsRound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, want int64 }{{1, 1}, {3, 5}, {7, 10}, {11, 20}, {101, 200}, {500, 500}} {
		require.Equal(t, tc.want, niceCeil(tc.n), "niceCeil(%d)", tc.n)
	}
}

// twoPagePDF is a PDF as the project's tasks write them (gopdf): an A4
// page filled red, then one filled blue.
func twoPagePDF(t *testing.T) []byte {
	t.Helper()
	var doc bytes.Buffer
	sheet := &gopdf.GoPdf{}
	sheet.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	for _, c := range []color.NRGBA{{R: 220, A: 255}, {B: 220, A: 255}} {
		sheet.AddPage()
		sheet.SetFillColor(c.R, c.G, c.B)
		sheet.RectFromUpperLeftWithStyle(0, 0, gopdf.PageSizeA4.W, gopdf.PageSizeA4.H, "F")
	}
	_, err := sheet.WriteTo(&doc)
	require.NoError(t, err)
	return doc.Bytes()
}

// With pdftoppm on PATH a PDF's thumbnail is its first page drawn small,
// made once and kept; a PDF it cannot draw, or a program that draws
// nothing, gets the icon with the page count instead.
func TestPDFThumbnailIsItsFirstPage(t *testing.T) {
	t.Parallel()
	pdftoppm, err := exec.LookPath("pdftoppm")
	require.NoError(t, err, "pdftoppm (Debian poppler-utils) is required; make test installs it")
	ctx := context.Background()
	// panelWith is a signed-in panel drawing with program, and a PDF of
	// its user stored with data.
	type setup struct {
		h      http.Handler
		cookie []string
		bucket *blob.Bucket
		store  func(pdf []byte, data string) *models.File
	}
	panelWith := func(program string) setup {
		s := setup{bucket: memblob.OpenBucket(nil)}
		var db *gorm.DB
		var u *models.User
		s.h, db, u, s.cookie = signedInPanelDrawing(t, program, func(d *api.Deps) { d.Blob = s.bucket })
		jobID := jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 0, 2, nil, nil)
		i := 0
		s.store = func(pdf []byte, data string) *models.File {
			f := &models.File{ID: models.NewID(""), UserID: u.ID, JobID: jobID, Index: i, Task: "techpack.create",
				MediaType: "application/pdf", BlobKey: models.NewID("b_"), Size: int64(len(pdf)), Data: data,
				CreatedAt: time.Now().UTC()}
			i++
			require.NoError(t, s.bucket.WriteAll(ctx, f.BlobKey, pdf, nil))
			require.NoError(t, db.Create(f).Error)
			return f
		}
		return s
	}
	icon := func(t *testing.T, s setup, f *models.File, pages string) {
		t.Helper()
		w := do(s.h, http.MethodGet, "/app/thumbs/"+f.ID, nil, s.cookie...)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		require.Equal(t, "image/svg+xml", w.Header().Get("Content-Type"))
		require.Contains(t, w.Body.String(), ">PDF<")
		require.Contains(t, w.Body.String(), pages)
	}

	s := panelWith(pdftoppm)
	doc := s.store(twoPagePDF(t), `{"pages":2}`)
	for range 2 { // drawn, then read from the bucket
		w := do(s.h, http.MethodGet, "/app/thumbs/"+doc.ID, nil, s.cookie...)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		require.Equal(t, "image/png", w.Header().Get("Content-Type"))
		require.Contains(t, w.Header().Get("Cache-Control"), "max-age=")
		img, err := png.Decode(bytes.NewReader(w.Body.Bytes()))
		require.NoError(t, err)
		b := img.Bounds()
		require.Equal(t, thumbSide, b.Dy(), "an A4 page fits the thumbnail by its height")
		require.InDelta(t, float64(thumbSide)*210/297, float64(b.Dx()), 2, "its aspect kept")
		r, g, bl, _ := img.At(b.Dx()/2, b.Dy()/2).RGBA()
		require.Greater(t, r>>8, uint32(180), "the first page (red) is drawn, not the second (blue)")
		require.Less(t, g>>8, uint32(60))
		require.Less(t, bl>>8, uint32(60))
	}
	kept, err := s.bucket.Exists(ctx, doc.ThumbKey("png"))
	require.NoError(t, err)
	require.True(t, kept, "the drawn page is kept")
	icon(t, s, s.store([]byte("%PDF-1.4\n%%EOF\n"), `{"pages":3}`), "3 pages") // nothing pdftoppm can draw

	// A program that answers no PNG: the icon, not a broken image.
	trueProgram, err := exec.LookPath("true")
	require.NoError(t, err)
	s = panelWith(trueProgram)
	icon(t, s, s.store(twoPagePDF(t), `{}`), "2 pages")
}
