package activities_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// filesBase is the public base address of file URLs in event bodies.
const filesBase = "https://files.test"

// newActivities is an Activities on db with an in-memory blob store, a
// signer of a fresh key and a logger that reports warnings to t. Jobs run
// every family (all.Registry), as the binary's worker does. Its HTTP and
// Fetch clients are the SSRF-safe ones trusting no test server; a test that
// sends or fetches replaces them with trusting(srv).
func newActivities(t *testing.T, db *gorm.DB) *activities.Activities {
	t.Helper()
	bucket := memblob.OpenBucket(nil)
	t.Cleanup(func() { _ = bucket.Close() })
	_, key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	return &activities.Activities{
		DB:           db,
		Blob:         bucket,
		Log:          zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)),
		FilesBaseURL: filesBase,
		Signer:       signer.New(key),
		Tasks:        all.Registry(),
		HTTP:         outbound.New(outbound.Options{}),
		Fetch:        outbound.New(outbound.Options{FollowRedirects: true}),
	}
}

// newEnv is a test activity environment with every activity of acts
// registered under its contract name; the SDK's own logging is discarded.
func newEnv(acts *activities.Activities) *testsuite.TestActivityEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return env
}

// trusting returns the SSRF-safe client as configured for dev and tests
// (private addresses allowed, https only) trusting the TLS test server srv;
// follow makes it follow redirects, as the fetch client does.
func trusting(srv *httptest.Server, follow bool) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return outbound.New(outbound.Options{AllowPrivate: true, RootCAs: pool, FollowRedirects: follow})
}

// exec runs the activity fn with args in env and decodes its result.
func exec[T any](t *testing.T, env *testsuite.TestActivityEnvironment, fn any, args ...any) (T, error) {
	t.Helper()
	var out T
	val, err := env.ExecuteActivity(fn, args...)
	if err != nil {
		return out, err
	}
	require.NoError(t, val.Get(&out))
	return out, nil
}

// mustExec is exec for an activity that must succeed.
func mustExec[T any](t *testing.T, env *testsuite.TestActivityEnvironment, fn any, args ...any) T {
	t.Helper()
	out, err := exec[T](t, env, fn, args...)
	require.NoError(t, err)
	return out
}

// appError requires err to carry a temporal ApplicationError and returns it.
func appError(t *testing.T, err error) *temporal.ApplicationError {
	t.Helper()
	require.Error(t, err)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "want an ApplicationError, got %T: %v", err, err)
	return appErr
}

// newUser creates an account holding credits service credits (none when 0).
func newUser(t *testing.T, db *gorm.DB, credits int64) *models.User {
	t.Helper()
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.test", "")
	require.NoError(t, err)
	if credits > 0 {
		_, err = models.Grant(ctx, db, u.ID, contract.CreditService, credits, nil, "test")
		require.NoError(t, err)
	}
	return u
}

// patternInput is a stored pattern.generate input: count tiles of 512 px.
func patternInput(count int) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"kind": "stripes", "colors": []string{"#1B2A4A", "#F4F1EA", "#C8102E"},
		"resolution": "512", "seed": 7, "count": count})
	return b
}

// jobInput is a pattern.generate job of u for two tiles holding hold
// service credits at price per tile; opts adjust it.
func jobInput(u *models.User, hold, price int64, opts ...func(*contract.JobInput)) contract.JobInput {
	in := contract.JobInput{JobID: models.NewID("job_"), UserID: u.ID, APIKeyID: "key_test", Task: "pattern.generate",
		Input: patternInput(2), CreditType: contract.CreditService, HeldCredits: hold, PricePerOutput: price,
		RequestID: "req_test", ServiceVersion: contract.FirstVersion}
	for _, o := range opts {
		o(&in)
	}
	return in
}

// withWebhook sets the job's per-request webhook_url.
func withWebhook(url string) func(*contract.JobInput) {
	return func(in *contract.JobInput) { in.WebhookURL = url }
}

// withTask sets the job's task and stored input.
func withTask(task string, input any) func(*contract.JobInput) {
	return func(in *contract.JobInput) {
		in.Task = task
		in.Input, _ = json.Marshal(input)
	}
}

// admit runs HoldCredits for in and requires the job admitted.
func admit(
	t *testing.T,
	env *testsuite.TestActivityEnvironment,
	acts *activities.Activities,
	in contract.JobInput,
) contract.AdmitResult {
	t.Helper()
	res := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
	require.True(t, res.Admitted, "admit %s: %+v", in.JobID, res)
	return res
}

// available is what u can hold now in service credits.
func available(t *testing.T, db *gorm.DB, u *models.User) int64 {
	t.Helper()
	n, err := models.Available(context.Background(), db, u.ID, contract.CreditService, time.Now())
	require.NoError(t, err)
	return n
}

// ledgerSum is the sum of u's service credit ledger entries.
func ledgerSum(t *testing.T, db *gorm.DB, u *models.User) int64 {
	t.Helper()
	var sum int64
	require.NoError(
		t,
		db.Model(&models.LedgerEntry{}).Where("user_id = ? AND credit_type = ?", u.ID, contract.CreditService).
			Select("COALESCE(SUM(amount), 0)").Scan(&sum).Error,
	)
	return sum
}

// ledgerRows counts the ledger entries of a job.
func ledgerRows(t *testing.T, db *gorm.DB, jobID string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, db.Model(&models.LedgerEntry{}).Where("job_id = ?", jobID).Count(&n).Error)
	return n
}

// job reads a job row.
func job(t *testing.T, db *gorm.DB, id string) *models.Job {
	t.Helper()
	j, err := models.JobByIDAny(context.Background(), db, id)
	require.NoError(t, err)
	return j
}

// publicError decodes the stored error object of a job.
func publicError(t *testing.T, j *models.Job) map[string]any {
	t.Helper()
	require.NotNil(t, j.Error, "job %s has no error object", j.ID)
	var e map[string]any
	require.NoError(t, json.Unmarshal([]byte(*j.Error), &e))
	return e
}

// deliverOutputs records outputs 0..n-1 of a job as if its steps ran.
func deliverOutputs(t *testing.T, db *gorm.DB, j *models.Job, n int) []*models.File {
	t.Helper()
	var out []*models.File
	for i := range n {
		f, err := models.AddOutput(
			context.Background(),
			db,
			&models.File{ID: models.NewID(""), UserID: j.UserID, JobID: j.ID, Index: i,
				Task: j.Task, MediaType: "image/png", BlobKey: "k", Size: 1, Data: fmt.Sprintf(`{"index":%d}`, i)},
			time.Now(),
		)
		require.NoError(t, err)
		out = append(out, f)
	}
	return out
}

// pngOf is a w × h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h))))
	return buf.Bytes()
}

// upload stores data as an upload of u and returns its file: handle.
func upload(t *testing.T, db *gorm.DB, bucket *blob.Bucket, u *models.User, data []byte, w, h int) string {
	t.Helper()
	ctx := context.Background()
	f := &models.File{
		ID:        models.NewID(""),
		UserID:    u.ID,
		MediaType: "image/png",
		BlobKey:   "uploads/" + models.NewID(""),
		Size:      int64(len(data)),
		Data:      fmt.Sprintf(`{"width":%d,"height":%d}`, w, h),
	}
	require.NoError(t, bucket.WriteAll(ctx, f.BlobKey, data, nil))
	require.NoError(t, models.CreateUpload(ctx, db, f, time.Now()))
	return f.Handle()
}

// addEndpoint registers an enabled webhook endpoint of u at url subscribed
// to events.
func addEndpoint(t *testing.T, db *gorm.DB, u *models.User, url string, events ...string) *models.WebhookEndpoint {
	t.Helper()
	ep := &models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: u.ID, URL: url, Events: strings.Join(events, ",")}
	require.NoError(t, db.Create(ep).Error)
	return ep
}

// stepOf is the input of output i's step of the job in, as its workflow
// sends it.
func stepOf(in contract.JobInput, i int) contract.StepInput {
	return contract.StepInput{JobID: in.JobID, Index: i, UserID: in.UserID, Task: in.Task, Input: in.Input}
}

// leavingTheQueue is step as the job workflow starts it before the job is
// known to have left the queue: it moves the job to running.
func leavingTheQueue(step contract.StepInput) contract.StepInput {
	step.Start = true
	return step
}

// markRunning moves a queued job to running with n outputs to deliver, as
// the step that leaves the queue does.
func markRunning(t *testing.T, db *gorm.DB, jobID string, n int) {
	t.Helper()
	require.NoError(t, models.MarkRunning(context.Background(), db, jobID, n, "drawing tiles", time.Now()))
}
