package e2e_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap/zaptest"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/telemetry"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// stackOptions shape one test's stack.
type stackOptions struct {
	backend   testenv.Backend
	credits   int64
	stepDelay time.Duration
	noWorker  bool
	noSteps   bool
	// noInline runs every job's steps on the steps queue, quick or not
	// (activities.Activities.NoInline).
	noInline bool
	// stepsPerJob bounds each job's outputs at once
	// (activities.Activities.StepsPerJob); 0 means contract.StepsPerJob.
	stepsPerJob  int
	admitTimeout time.Duration
	bucket       *blob.Bucket
	// filesBaseURL is the public base of file URLs; empty means the server's.
	filesBaseURL string
	// rootCAs are trusted by the webhook client (a test receiver's certificate).
	rootCAs *x509.CertPool
	// fetchTimeout bounds an image URL fetch; zero means 5 s.
	// fetchPublicOnly makes the fetch client refuse private addresses as
	// in production (loopback test servers included).
	fetchTimeout    time.Duration
	fetchPublicOnly bool
	// registry is the tasks the stack serves and runs; nil means every
	// family (tasks/all), as the binary runs them.
	registry *tasks.Registry
	// capacityDeadline is how long an analysis step may wait for a slot;
	// zero means the default. analysisCapacity is the worker's analysis
	// slots; zero means the default.
	capacityDeadline time.Duration
	analysisCapacity int
	// maxSteps is the workers' step slots; zero means the default.
	maxSteps int
	// temporal wraps the API's Temporal client (e.g. to cut calls off).
	temporal func(client.Client) client.Client
	// client is the stack's Temporal client (API, worker, activities); nil
	// means the package's dev server.
	client client.Client
	// lateAdmits tunes the workers' sweep of late admits; a zero Every
	// means 200 ms.
	lateAdmits activities.LateAdmitOptions
	// telemetry traces the stack (HTTP server spans, the Temporal clients'
	// interceptor, webhook client spans) and reports the SDK's metrics;
	// nil: none.
	telemetry *telemetry.Telemetry
	// library is the API's Deps.Library: the state of the libraries a
	// starting process writes; nil: written before.
	library func() error
	// maxConns bounds the stack's PostgreSQL pool; zero means
	// testenv.MaxOpenConns, sized for the package's parallel tests.
	maxConns int
}

// testStack is a whole service for one test: its own database, task queue,
// blob store, worker and HTTP server, on the package's Temporal.
type testStack struct {
	// analysisCapacity is passed to the stack's workers.
	analysisCapacity int
	// maxSteps is passed to the stack's workers (0: the default).
	maxSteps   int
	t          testing.TB
	db         *gorm.DB
	queue      string
	srv        *httptest.Server
	acts       *activities.Activities
	worker     *worker.Worker
	userID     uint64
	key        string
	keyID      string
	signer     *signer.Signer
	lateAdmits activities.LateAdmitOptions

	// temporal is the Temporal client of the stack's worker and activities.
	temporal client.Client
}

func newStack(t testing.TB, o stackOptions) *testStack {
	t.Helper()
	if o.backend == "" {
		o.backend = testenv.Postgres
	}
	if o.registry == nil {
		o.registry = all.Registry()
	}
	if o.fetchTimeout == 0 {
		o.fetchTimeout = 5 * time.Second
	}
	if o.admitTimeout == 0 {
		o.admitTimeout = 30 * time.Second // generous: CI runs packages side by side on two cores
	}
	s := &testStack{t: t, db: testenv.DB(t, o.backend), queue: "tq-" + models.NewID("")}
	if o.maxConns > 0 && o.backend == testenv.Postgres {
		sqlDB, err := s.db.DB()
		require.NoError(t, err)
		sqlDB.SetMaxOpenConns(o.maxConns)
	}
	s.temporal = o.client
	if s.temporal == nil {
		s.temporal = stackTemporal(t, o.telemetry)
	}
	if s.lateAdmits = o.lateAdmits; s.lateAdmits.Every == 0 {
		s.lateAdmits.Every = 200 * time.Millisecond
	}
	bucket := o.bucket
	if bucket == nil {
		bucket = memblob.OpenBucket(nil)
	}
	log := zaptest.NewLogger(t)
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	s.signer = signer.New(key)
	s.acts = &activities.Activities{
		DB:        s.db,
		Blob:      bucket,
		Log:       log,
		StepDelay: o.stepDelay,
		Signer:    s.signer,
		Tasks:     o.registry,
		HTTP: outbound.New(outbound.Options{AllowPrivate: true, RootCAs: o.rootCAs, Timeout: 5 * time.Second,
			Tracing: o.telemetry.Tracing()}),
		Fetch: outbound.New(
			outbound.Options{AllowPrivate: !o.fetchPublicOnly, RootCAs: o.rootCAs, FollowRedirects: true,
				Timeout: o.fetchTimeout},
		),
		Temporal:         s.temporal,
		CapacityDeadline: o.capacityDeadline,
		NoInline:         o.noInline,
		StepsPerJob:      o.stepsPerJob,
	}
	s.analysisCapacity = o.analysisCapacity
	s.maxSteps = o.maxSteps
	var handler http.Handler
	s.srv = httptest.NewServer(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }),
	)
	t.Cleanup(s.srv.Close)
	if o.filesBaseURL == "" {
		o.filesBaseURL = s.srv.URL
	}
	apiTemporal := s.temporal
	if o.temporal != nil {
		apiTemporal = o.temporal(apiTemporal)
	}
	handler = api.NewRouter(
		api.Deps{
			DB:               s.db,
			Temporal:         apiTemporal,
			Blob:             bucket,
			Log:              log,
			BaseURL:          s.srv.URL,
			FilesBaseURL:     o.filesBaseURL,
			RateLimit:        100000,
			RateWindow:       time.Minute,
			AdmitTimeout:     o.admitTimeout,
			TaskQueue:        s.queue,
			Signer:           s.signer,
			AllowPrivateURLs: true,
			Catalogue:        catalogue.New(o.registry),
			Tracing:          o.telemetry.Tracing(),
			Library:          o.library,
		},
	)
	s.acts.FilesBaseURL = o.filesBaseURL
	if !o.noWorker {
		s.startWorker(o.noSteps)
	}
	s.userID, s.key, s.keyID = s.newAccount(o.credits)
	return s
}

// curated is the curated library drawn once for the package's stacks:
// each test that needs it writes it into its own database and bucket.
var curated records.Library

// served is the catalogue the binary serves: every family of tasks/all.
func served() *catalogue.Catalogue { return catalogue.New(all.Registry()) }

// startWorker starts a worker on the stack's queue (stopped at cleanup).
func (s *testStack) startWorker(noSteps bool) *worker.Worker {
	w := worker.New(s.temporal, s.acts, worker.Options{TaskQueue: s.queue, NoSteps: noSteps,
		AnalysisCapacity: s.analysisCapacity, MaxConcurrentSteps: s.maxSteps, LateAdmits: s.lateAdmits})
	require.NoError(s.t, w.Start())
	s.t.Cleanup(w.Stop)
	s.worker = w
	return w
}

// newAccount makes a user with credits and a key holding every scope.
func (s *testStack) newAccount(credits int64) (uint64, string, string) {
	ctx := context.Background()
	u, err := models.CreateUser(ctx, s.db, models.NewID("")+"@example.com", models.PlanStandard)
	require.NoError(s.t, err)
	if credits > 0 {
		_, err = models.Grant(ctx, s.db, u.ID, contract.CreditService, credits, nil, "test")
		require.NoError(s.t, err)
	}
	k, secret, err := models.CreateKey(ctx, s.db, u.ID, nil, nil, api.CurrentVersion)
	require.NoError(s.t, err)
	return u.ID, secret, k.ID
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "body: %s", r.body)
	return m
}

func (r response) errorCode(t testing.TB) string {
	t.Helper()
	e, ok := r.json(t)["error"].(map[string]any)
	require.True(t, ok, "no error object in %s", r.body)
	return e["code"].(string)
}

// do sends a request with the stack's key and extra headers.
func (s *testStack) do(method, path string, body any, headers ...string) response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(s.t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.srv.URL+path, rd)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Key "+s.key)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	return response{status: res.StatusCode, header: res.Header, body: raw}
}

// submit posts a pattern.generate job.
func (s *testStack) submit(input map[string]any, headers ...string) response {
	s.t.Helper()
	return s.do(http.MethodPost, "/v1/tasks/pattern.generate", input, headers...)
}

// waitTerminal polls a job until it ends, for at most a minute.
func (s *testStack) waitTerminal(jobID string) map[string]any {
	s.t.Helper()
	return s.waitTerminalWithin(jobID, 60*time.Second)
}

// waitTerminalWithin polls a job until it ends, for at most d.
func (s *testStack) waitTerminalWithin(jobID string, d time.Duration) map[string]any {
	s.t.Helper()
	var job map[string]any
	require.Eventually(s.t, func() bool {
		job = s.do(http.MethodGet, "/v1/jobs/"+jobID, nil).json(s.t)
		return job["lifecycle"] == "terminal"
	}, d, 100*time.Millisecond)
	return job
}

// result is the job's result when res, a Prefer: wait answer, is the job
// still running (202: a loaded machine outran the wait): a test of what a
// job delivers reads it once the job ends. Heavy jobs (2048-px shots,
// upscales) under the race detector beside three other tests can take
// minutes, so it waits for up to four.
func (s *testStack) result(res response) response {
	s.t.Helper()
	if res.status != http.StatusAccepted {
		return res
	}
	id := res.json(s.t)["job_id"].(string)
	s.waitTerminalWithin(id, 4*time.Minute)
	return s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
}

// balance is the remaining service credits.
func (s *testStack) balance() int64 {
	s.t.Helper()
	bals, err := models.Balances(context.Background(), s.db, s.userID, time.Now())
	require.NoError(s.t, err)
	return bals[0].Remaining
}

// ledgerSum is the sum of the user's ledger entries: it must equal the balance.
func (s *testStack) ledgerSum() int64 {
	var sum int64
	require.NoError(
		s.t,
		s.db.Model(&models.LedgerEntry{}).Where("user_id = ? AND credit_type = ?", s.userID, contract.CreditService).
			Select("COALESCE(SUM(amount),0)").Scan(&sum).Error,
	)
	return sum
}

func pattern(count int) map[string]any {
	return map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "#F2C14E"}, "count": count, "seed": 11}
}

// newAccountKey makes a second account on the stack and returns its key.
func newAccountKey(t testing.TB, s *testStack) string {
	_, key, _ := s.newAccount(10)
	return key
}

// doAs sends a bodiless request with another key.
func (s *testStack) doAs(key, method, path string) response {
	saved := s.key
	s.key = key
	defer func() { s.key = saved }()
	return s.do(method, path, nil)
}
