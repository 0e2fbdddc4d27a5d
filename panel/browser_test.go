package panel

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/testenv"
)

// site is the panel on a server of its own over a database of the test's
// own, with its user signed in in a headless chromium.
type site struct {
	url    string
	db     *gorm.DB
	bucket *blob.Bucket
	user   *models.User
	ctx    context.Context
}

// newSite serves the panel and signs its user in in a new browser.
func newSite(t *testing.T) *site {
	t.Helper()
	path, err := exec.LookPath("chromium")
	require.NoError(t, err, "make test installs Debian's chromium")
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, "ada@example.com", models.PlanStandard)
	require.NoError(t, err)
	require.NoError(t, models.SetPassword(ctx, db, u.ID, password))
	bucket := memblob.OpenBucket(nil)
	t.Cleanup(func() { _ = bucket.Close() })
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	h = Mount(api.Deps{DB: db, Blob: bucket, BaseURL: srv.URL, Catalogue: catalogue.New(all.Registry()),
		RateLimit: 100000, RateWindow: time.Minute})
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.Flag("headless", true),
		chromedp.NoSandbox, chromedp.WindowSize(1440, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(cancelB)
	bctx, cancelT := context.WithTimeout(bctx, 3*time.Minute)
	t.Cleanup(cancelT)
	s := &site{url: srv.URL, db: db, bucket: bucket, user: u, ctx: bctx}
	s.run(t,
		chromedp.Navigate(srv.URL+"/app/sign-in"),
		chromedp.WaitVisible("#email", chromedp.ByQuery),
		chromedp.SendKeys("#email", u.Email, chromedp.ByQuery),
		chromedp.SendKeys("#password", password, chromedp.ByQuery),
		chromedp.Click("#sign-in", chromedp.ByQuery),
		chromedp.WaitVisible("#sign-out", chromedp.ByQuery),
	)
	return s
}

// run runs browser actions, failing the test on an error.
func (s *site) run(t *testing.T, actions ...chromedp.Action) {
	t.Helper()
	require.NoError(t, chromedp.Run(s.ctx, actions...))
}

// open loads a page of the panel and waits for it to be shown.
func (s *site) open(t *testing.T, path string) {
	t.Helper()
	s.run(t, chromedp.Navigate(s.url+path), chromedp.WaitVisible("#sign-out", chromedp.ByQuery))
}

// shoot saves a screenshot of the page as name.png in the folder
// TP_SCREENSHOTS names, if any.
func (s *site) shoot(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("TP_SCREENSHOTS")
	if dir == "" {
		return
	}
	var shot []byte
	s.run(t, chromedp.FullScreenshot(&shot, 100))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644))
}

// pngOf is a w × h PNG of one colour.
func pngOf(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// file stores a file of the user: a job's output when jobID is set, else
// an upload.
func (s *site) file(t *testing.T, jobID string, index int, media string, data []byte, meta string) *models.File {
	t.Helper()
	f := &models.File{ID: models.NewID(""), UserID: s.user.ID, JobID: jobID, Index: index, Task: "pattern.stripes",
		MediaType: media, BlobKey: models.NewID("blob_"), Size: int64(len(data)), Data: meta,
		CreatedAt: time.Now().UTC()}
	require.NoError(t, s.bucket.WriteAll(context.Background(), f.BlobKey, data, nil))
	require.NoError(t, s.db.Create(f).Error)
	return f
}

// seed gives the account what the pages list: a key, an endpoint at a long
// URL, a job with image and PDF outputs and deliveries of it with long
// bodies and answers.
func (s *site) seed(t *testing.T) (jobID string) {
	t.Helper()
	ctx := context.Background()
	k, _, err := models.CreateKey(ctx, s.db, s.user.ID, models.AllScopes, nil, "")
	require.NoError(t, err)
	for _, l := range []models.SpendLimit{{APIKeyID: k.ID, Period: contract.SpendMonth, Credits: 5000},
		{Period: contract.SpendDay, Credits: 250}} {
		l.UserID, l.CreditType = s.user.ID, contract.CreditService
		_, err = models.SetSpendLimit(ctx, s.db, l)
		require.NoError(t, err)
	}
	ep := &models.WebhookEndpoint{UserID: s.user.ID,
		URL: "https://hooks.example-receiver-with-a-long-name.com/taskplatform/webhooks/receive/" +
			strings.Repeat("segment/", 6)}
	require.NoError(t, models.CreateEndpoint(ctx, s.db, ep))
	total := 3
	outcome := contract.OutcomeSucceeded
	j := &models.Job{ID: models.NewID("j_"), UserID: s.user.ID, Task: "pattern.stripes",
		Input: `{"colors":["#1F3A5F","#F2C14E"],"count":2,"resolution":"2048"}`, Lifecycle: contract.LifecycleTerminal,
		Outcome: &outcome, ProgressDone: total, ProgressTotal: &total, Phase: "rendering",
		CreditType: contract.CreditService, CreatedAt: time.Now().UTC()}
	require.NoError(t, s.db.Create(j).Error)
	s.file(t, j.ID, 0, "image/png", pngOf(t, 2048, 2048, color.NRGBA{R: 31, G: 58, B: 95, A: 255}),
		`{"kind":"stripes","colors":["#1F3A5F","#F2C14E"],"seed":`+fmt.Sprint(time.Now().UnixNano())+`}`)
	s.file(t, j.ID, 1, "image/png", pngOf(t, 1200, 600, color.NRGBA{R: 242, G: 193, B: 78, A: 255}),
		`{"kind":"stripes"}`)
	s.file(t, j.ID, 2, "application/pdf", []byte("%PDF-1.4\n%%EOF\n"), `{"pages":3}`)
	body := `{"type":"job.succeeded","data":{"job_id":"` + j.ID + `","files":["` + strings.Repeat("x", 300) + `"]}}`
	for i, status := range []string{models.DeliveryDelivered, models.DeliveryFailed} {
		d := &models.WebhookDelivery{ID: models.NewID("whd_"), EventID: models.NewID("evt_"), UserID: s.user.ID,
			EndpointID: ep.ID, URL: ep.URL, Event: "job.succeeded", JobID: j.ID, Body: body, Status: status,
			Attempts: 1, CreatedAt: time.Now().UTC().Add(time.Duration(i) * time.Second),
			UpdatedAt: time.Now().UTC()}
		require.NoError(t, models.CreateDelivery(ctx, s.db, d))
		a := models.WebhookAttempt{DeliveryID: d.ID, Attempt: 1, At: time.Now().UTC(), StatusCode: 200,
			DurationMS: 31}
		if status == models.DeliveryFailed {
			a.StatusCode, a.Error = 0, "the connection to hooks.example-receiver-with-a-long-name.com was refused "+
				"after "+strings.Repeat("waiting ", 8)
		}
		require.NoError(t, s.db.Create(&a).Error)
	}
	return j.ID
}

// overflowing names the first elements wider than a phone.
const overflowing = `Array.from(document.querySelectorAll("body *")).
	filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 8).
	map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`

// TestSpendLimitsAreSetAndRemovedInThePanel: the keys page sets a key's
// monthly limit through its form, lists it with its spend, and removes it.
func TestSpendLimitsAreSetAndRemovedInThePanel(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	k, _, err := models.CreateKey(ctx, s.db, s.user.ID, models.AllScopes, nil, "")
	require.NoError(t, err)
	s.open(t, "/app/keys")
	s.run(t,
		chromedp.SetValue("#limit-key", k.ID, chromedp.ByQuery),
		chromedp.SetValue("#limit-period", contract.SpendMonth, chromedp.ByQuery),
		chromedp.SendKeys("#limit-credits", "25", chromedp.ByQuery),
		chromedp.Click("#set-limit button[type=submit]", chromedp.ByQuery),
		chromedp.WaitVisible("tr[data-limit] form.remove-limit", chromedp.ByQuery),
	)
	limits, err := models.SpendLimits(ctx, s.db, s.user.ID, time.Now())
	require.NoError(t, err)
	require.Len(t, limits, 1)
	require.Equal(t, k.ID, limits[0].APIKeyID)
	require.Equal(t, contract.SpendMonth, limits[0].Period)
	require.EqualValues(t, 25, limits[0].Credits)
	var row string
	s.run(t, chromedp.Text("tr[data-limit]", &row, chromedp.ByQuery))
	require.Contains(t, row, k.ID)
	require.Contains(t, row, "25")

	s.run(t,
		chromedp.Evaluate(`window.confirm = () => true`, nil),
		chromedp.Click("tr[data-limit] form.remove-limit button", chromedp.ByQuery),
		chromedp.WaitNotPresent("tr[data-limit]", chromedp.ByQuery),
	)
	limits, err = models.SpendLimits(ctx, s.db, s.user.ID, time.Now())
	require.NoError(t, err)
	require.Empty(t, limits, "removed")
}

// The pages a phone shows do not scroll sideways at 390 px: the webhooks
// page with a long endpoint URL and delivery log, the keys page with its
// actions, a job with outputs and deliveries, the run form.
func TestPagesFitAPhone(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	jobID := s.seed(t)
	pages := []struct{ name, path string }{
		{"overview", "/app/"},
		{"jobs", "/app/jobs"},
		{"job", "/app/jobs/" + jobID},
		{"run", "/app/run"},
		{"runform", "/app/run/photoshoot.create"},
		{"files", "/app/files?kind=art"},
		{"keys", "/app/keys"},
		{"webhooks", "/app/webhooks"},
	}
	for _, p := range pages {
		s.open(t, p.path)
		s.shoot(t, p.name)
	}
	const width = 390
	s.run(t, chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
	var wide []string
	for _, p := range pages {
		s.open(t, p.path)
		var size struct{ Scroll, Inner int }
		s.run(t, chromedp.Evaluate(`({Scroll: document.documentElement.scrollWidth, Inner: innerWidth})`, &size))
		s.shoot(t, p.name+"-phone")
		if size.Inner != width || size.Scroll > width {
			var culprits []string
			s.run(t, chromedp.Evaluate(overflowing, &culprits))
			wide = append(wide, fmt.Sprintf("%s (%d px in a %d px window) %v", p.path, size.Scroll, size.Inner, culprits))
		}
	}
	require.Empty(t, wide, "pages that scroll sideways on a %d px phone", width)
}

// TestJobOutputsKeepTheirImagesWhileTheJobRuns: the job page refreshes its
// live part every second while the job runs; an output already shown keeps
// its image element (its thumbnail loaded once), so it never blanks while
// it would load again.
func TestJobOutputsKeepTheirImagesWhileTheJobRuns(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	id := jobOf(t, s.db, s.user, contract.LifecycleRunning, "", 1, 4, nil, nil)
	s.open(t, "/app/jobs/"+id)
	var replaced, kept bool
	s.run(t,
		chromedp.WaitVisible("figure.file img", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("figure.file img").kept = true;
			document.querySelector("#job").old = true`, nil),
		chromedp.Poll(`!document.querySelector("#job").old`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Evaluate(`!document.querySelector("#job").old`, &replaced),
		chromedp.Evaluate(`document.querySelector("figure.file img").kept === true`, &kept),
	)
	require.True(t, replaced, "the live part was refreshed")
	require.True(t, kept, "the output kept its image element")
}
