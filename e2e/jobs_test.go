package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"gocloud.dev/blob/fileblob"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// priceOf is what pattern.generate holds and charges per output for input.
func priceOf(t testing.TB, input map[string]any) (hold, perOutput int64) {
	def, err := served().Tasks().Lookup("pattern.generate")
	require.NoError(t, err)
	raw, _ := json.Marshal(input)
	in, err := def.Validate(raw)
	require.NoError(t, err)
	hold, _ = def.Estimate(in)
	return hold, def.PricePerOutput(in)
}

func TestSubmitWaitReturnsResultAndChargesDelivered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		backend testenv.Backend
		outputs int
		// queued runs the job's steps on the steps queue (a quick job runs
		// them inside its admit).
		queued  bool
		history string // the recorded history's name
	}{
		{name: "postgres, inline", backend: testenv.Postgres, outputs: 2, history: "inline"},
		{name: "sqlite", backend: testenv.SQLite, outputs: 3},
		{
			name:    "one output on the steps queue",
			backend: testenv.Postgres,
			outputs: 1,
			queued:  true,
			history: "one_output",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, stackOptions{backend: tc.backend, credits: 100, noInline: tc.queued})
			input := pattern(tc.outputs)
			hold, per := priceOf(t, input)

			res := s.submit(input, "Prefer", "wait=30")
			require.Equal(t, http.StatusOK, res.status, "%s", res.body)
			require.Equal(t, "wait=30", res.header.Get("Preference-Applied"))
			require.Equal(t, strconv.FormatInt(hold, 10), res.header.Get("X-Service-Credits"))
			require.Equal(t, "service_credits", res.header.Get("X-Service-Credit-Type"))
			body := res.json(t)
			files := body["files"].([]any)
			require.Len(t, files, tc.outputs)
			require.NotContains(t, body, "summary", "no counts or warnings to report")
			for _, f := range files {
				f := f.(map[string]any)
				require.Regexp(t, `^art:`, f["file"])
				require.Equal(t, "image/png", f["media_type"])
				require.Equal(t, body["job_id"], f["job_id"])
				dl, err := http.Get(f["url"].(string)) // no key needed
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, dl.StatusCode)
				require.Equal(t, "image/png", dl.Header.Get("Content-Type"))
				dl.Body.Close()
			}
			require.Equal(t, 100-int64(tc.outputs)*per, s.balance())
			require.Equal(t, s.balance(), s.ledgerSum(), "the ledger explains the balance")

			job := s.do(http.MethodGet, "/v1/jobs/"+body["job_id"].(string), nil).json(t)
			require.Equal(t, "terminal", job["lifecycle"])
			require.Equal(t, "succeeded", job["outcome"])
			done := float64(tc.outputs)
			require.Equal(t, map[string]any{"done": done, "total": done, "phase": "done"}, job["progress"])
			require.Equal(t, s.keyID, job["api_key_id"])
			if tc.history != "" {
				recordHistory(t, body["job_id"].(string), tc.history)
			}
		})
	}
}

func TestSubmitWithoutWaitAnswersHandleThenProgressRises(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, stepDelay: 400 * time.Millisecond})
	// 8 outputs, at most contract.StepsPerJob (4) at once: two waves.
	res := s.submit(pattern(8))
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	h := res.json(t)
	id := h["job_id"].(string)
	require.Regexp(t, `^j_`, id)
	require.Equal(t, s.srv.URL+"/v1/jobs/"+id, h["status_url"])
	require.Equal(t, s.srv.URL+"/v1/jobs/"+id+"/result", h["result_url"])
	require.Equal(t, s.srv.URL+"/v1/jobs/"+id+"/cancel", h["cancel_url"])

	early := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusConflict, early.status)
	require.Equal(t, "result_not_ready", early.errorCode(t))

	seen := map[float64]bool{}
	require.Eventually(t, func() bool {
		j := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)
		seen[j["progress"].(map[string]any)["done"].(float64)] = true
		return j["lifecycle"] == "terminal"
	}, 30*time.Second, 50*time.Millisecond)
	require.GreaterOrEqual(t, len(seen), 3, "progress.done rose step by step: %v", seen)

	list := s.do(http.MethodGet, "/v1/jobs?api_key_id="+s.keyID, nil).json(t)
	require.Len(t, list["items"], 1)
	require.Equal(t, false, list["has_more"])
	recordHistory(t, id, "parallel")
}

func TestPreferWaitTimesOutIntoHandle(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, stepDelay: 2 * time.Second})
	res := s.submit(pattern(2), "Prefer", "wait=1")
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	require.Equal(t, "wait=1", res.header.Get("Preference-Applied"))
	require.Contains(t, res.json(t), "job_id")

	clipped := s.submit(pattern(1), "Prefer", "wait=100000")
	require.Equal(
		t,
		"wait="+strconv.Itoa(contract.DefaultLimits().PreferWait.MaxSeconds),
		clipped.header.Get("Preference-Applied"),
	)
}

func TestCancelKeepsDeliveredOutputsAndReleasesTheRest(t *testing.T) {
	t.Parallel()
	// Two outputs at once: the cancel comes while the second pair runs (a
	// step this short ends before its heartbeat hears of it), and the third
	// never starts.
	s := newStack(t, stackOptions{credits: 100, stepDelay: 700 * time.Millisecond, stepsPerJob: 2})
	input := pattern(6)
	hold, per := priceOf(t, input)
	id := s.submit(input).json(t)["job_id"].(string)
	require.Eventually(t, func() bool {
		return s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)["progress"].(map[string]any)["done"].(float64) >= 1
	}, 20*time.Second, 50*time.Millisecond)
	require.Equal(t, 100-hold, s.balance(), "the hold is taken while the job runs")

	c := s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil)
	require.Equal(t, http.StatusAccepted, c.status, "%s", c.body)
	require.Equal(t, "running", c.json(t)["lifecycle"])

	job := s.waitTerminal(id)
	require.Equal(t, "cancelled", job["outcome"])
	e := job["error"].(map[string]any)
	require.Equal(t, "cancelled", e["code"])
	require.Equal(t, "conflict", e["type"])
	require.Nil(t, e["request_id"])
	done := int64(job["progress"].(map[string]any)["done"].(float64))
	require.Less(t, done, int64(6), "the job stopped early")

	n, err := models.Delivered(context.Background(), s.db, id)
	require.NoError(t, err)
	require.Equal(t, done, n)
	require.Equal(t, 100-done*per, s.balance(), "delivered outputs charged, the rest released")
	require.Equal(t, s.balance(), s.ledgerSum())

	r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusConflict, r.status)
	require.Equal(t, "cancelled", r.errorCode(t))
	again := s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil)
	require.Equal(t, http.StatusBadRequest, again.status)
	require.Equal(t, "job_already_ended", again.errorCode(t))
	recordHistory(t, id, "cancelled_parallel")
}

func TestWaitOnCancelledJobAnswers409(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, stepDelay: 1 * time.Second})
	var (
		res    response
		resErr error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, resErr = s.trySubmit(pattern(5), "Prefer", "wait=30", "Idempotency-Key", "wait-cancel")
	}()
	var id string
	require.Eventually(t, func() bool {
		list := s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"].([]any)
		if len(list) == 0 {
			return false
		}
		id = list[0].(map[string]any)["job_id"].(string)
		return true
	}, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, http.StatusAccepted, s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil).status)
	<-done
	require.NoError(t, resErr)
	require.Equal(t, http.StatusConflict, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "cancelled", e["code"])
	require.Equal(t, id, e["job_id"])
}

// A new account's refused submit answers the spec's 402: Service-Version
// 2026-09-29 (the current version its first key pinned) and required and
// balance at the error's top level as well as in ctx; asking for the older
// 2026-06-30 gives them in ctx only.
func TestInsufficientCreditsLeavesNoJob(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			s := newStack(t, stackOptions{backend: b, credits: 1})
			hold, _ := priceOf(t, pattern(3))
			res := s.submit(pattern(3))
			require.Equal(t, http.StatusPaymentRequired, res.status, "%s", res.body)
			require.Equal(t, "2026-09-29", res.header.Get("Service-Version"))
			e := res.json(t)["error"].(map[string]any)
			require.Equal(t, "insufficient_credits", e["code"])
			require.Equal(
				t,
				map[string]any{"required": float64(hold), "balance": 1.0},
				e["ctx"],
				"ctx gives the amounts in every version",
			)
			require.Equal(t, float64(hold), e["required"])
			require.Equal(t, 1.0, e["balance"])

			res = s.submit(pattern(3), "Service-Version", "2026-06-30")
			require.Equal(t, http.StatusPaymentRequired, res.status, "%s", res.body)
			require.Equal(t, "2026-06-30", res.header.Get("Service-Version"))
			e = res.json(t)["error"].(map[string]any)
			require.Equal(t, map[string]any{"required": float64(hold), "balance": 1.0}, e["ctx"])
			require.NotContains(t, e, "required")
			require.NotContains(t, e, "balance")
			require.Empty(t, s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"])
			require.Equal(t, int64(1), s.balance())
		})
	}
}

func TestNoOverdraftUnderConcurrency(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			_, per := priceOf(t, pattern(1))
			s := newStack(t, stackOptions{backend: b, credits: 10 * per})
			var mu sync.Mutex
			statuses := map[int]int{}
			var errs []error
			var wg sync.WaitGroup
			for range 50 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := s.trySubmit(pattern(1))
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						errs = append(errs, err)
						return
					}
					statuses[res.status]++
				}()
			}
			wg.Wait()
			require.Empty(t, errs)
			require.Equal(t, map[int]int{http.StatusAccepted: 10, http.StatusPaymentRequired: 40}, statuses)
		})
	}
}

// TestIdempotencyKey: the same key and the same request answer the first
// job; the same key with anything else that shapes the job — the body, the
// webhook_url, the start deadline — answers 409 idempotency_key_reused and
// holds nothing.
func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	const key = "k-1"
	plain := "/v1/tasks/pattern.generate"
	hooked := func(path string) string { return plain + "?webhook_url=" + url.QueryEscape(rcv.srv.URL+path) }

	first := s.do(http.MethodPost, hooked("/a"), pattern(2), "Idempotency-Key", key, "X-Service-Start-Timeout", "30")
	require.Equal(t, http.StatusAccepted, first.status, "%s", first.body)
	again := s.do(http.MethodPost, hooked("/a"), pattern(2), "Idempotency-Key", key, "X-Service-Start-Timeout", "30")
	require.Equal(t, http.StatusAccepted, again.status, "%s", again.body)
	require.Equal(t, first.json(t)["job_id"], again.json(t)["job_id"])
	require.Equal(t, first.header.Get("X-Service-Credits"), again.header.Get("X-Service-Credits"))
	require.Equal(t, first.header.Get("X-Service-Credit-Type"), again.header.Get("X-Service-Credit-Type"))

	for _, tc := range []struct {
		name    string
		path    string
		body    map[string]any
		headers []string
	}{
		{name: "another body", path: hooked("/a"), body: pattern(3), headers: []string{"X-Service-Start-Timeout", "30"}},
		{name: "another webhook_url", path: hooked("/b"), body: pattern(2), headers: []string{"X-Service-Start-Timeout",
			"30"}},
		{name: "no webhook_url", path: plain, body: pattern(2), headers: []string{"X-Service-Start-Timeout", "30"}},
		{name: "another start timeout", path: hooked("/a"), body: pattern(2), headers: []string{"X-Service-Start-Timeout",
			"60"}},
		{name: "no start timeout", path: hooked("/a"), body: pattern(2)},
	} {
		res := s.do(http.MethodPost, tc.path, tc.body, append([]string{"Idempotency-Key", key}, tc.headers...)...)
		require.Equal(t, http.StatusConflict, res.status, "%s: %s", tc.name, res.body)
		require.Equal(t, "idempotency_key_reused", res.errorCode(t), tc.name)
	}

	var holds int64
	require.NoError(
		t,
		s.db.Model(&models.LedgerEntry{}).
			Where("user_id = ? AND kind = ?", s.userID, models.LedgerHold).
			Count(&holds).
			Error,
	)
	require.Equal(t, int64(1), holds)
}

func TestConcurrentIdenticalSubmitsMakeOneJob(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1000})
	var mu sync.Mutex
	var answers []response
	var errs []error
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.trySubmit(pattern(1), "Idempotency-Key", "same")
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			answers = append(answers, res)
		}()
	}
	wg.Wait()
	require.Empty(t, errs)
	ids := map[string]int{}
	for _, res := range answers {
		if res.status == http.StatusAccepted {
			ids[res.json(t)["job_id"].(string)]++
			continue
		}
		require.Equal(t, http.StatusConflict, res.status, "%s", res.body)
		require.Equal(t, "request_in_progress", res.errorCode(t))
		require.Equal(t, true, res.json(t)["error"].(map[string]any)["retryable"])
	}
	require.Len(t, ids, 1, "one job id across every accepted answer")
	var jobs, holds int64
	require.NoError(t, s.db.Model(&models.Job{}).Where("user_id = ?", s.userID).Count(&jobs).Error)
	require.NoError(
		t,
		s.db.Model(&models.LedgerEntry{}).
			Where("user_id = ? AND kind = ?", s.userID, models.LedgerHold).
			Count(&holds).
			Error,
	)
	require.Equal(t, int64(1), jobs)
	require.Equal(t, int64(1), holds)
}

func TestStartTimeoutFailsAndReleasesHold(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noSteps: true})
	res := s.submit(pattern(2), "X-Service-Start-Timeout", "1", "Prefer", "wait=20")
	require.Equal(t, http.StatusServiceUnavailable, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "start_timeout", e["code"])
	require.Equal(t, "internal", e["type"])
	require.Equal(t, true, e["retryable"])
	require.Equal(t, "user", res.header.Get("X-Service-Start-Timeout-Type"))
	id := e["job_id"].(string)

	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil)
	require.Equal(t, "user", job.header.Get("X-Service-Start-Timeout-Type"))
	require.Equal(t, "failed", job.json(t)["outcome"])
	require.Equal(t, int64(100), s.balance(), "the hold is fully released")
	require.Equal(t, s.balance(), s.ledgerSum())

	r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, "job_failed", r.errorCode(t))
	recordHistory(t, id, "start_timeout")
}

func TestStorageFailureFailsJobAndChargesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		queued  bool
		history string
	}{{"inline", false, "failed_inline"}, {"on the steps queue", true, "failed"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			bucket, err := fileblob.OpenBucket(dir, nil)
			require.NoError(t, err)
			require.NoError(t, os.RemoveAll(dir))
			require.NoError(t, os.WriteFile(dir, nil, 0o644)) // the store's folder is now a file: every write fails
			s := newStack(t, stackOptions{credits: 100, bucket: bucket, noInline: tc.queued})
			res := s.submit(pattern(1), "Prefer", "wait=30")
			require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
			e := res.json(t)["error"].(map[string]any)
			require.Equal(t, "processing_failed", e["code"])
			require.Equal(t, false, e["retryable"])
			id := e["job_id"].(string)
			require.Equal(t, int64(100), s.balance(), "a job that delivers nothing is charged nothing")
			require.Equal(t, s.balance(), s.ledgerSum())
			r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
			require.Equal(t, http.StatusConflict, r.status)
			require.Equal(t, "job_failed", r.errorCode(t))
			recordHistory(t, id, tc.history)
		})
	}
}

func TestStartTimeoutOutsideLimitsIs422(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	lim := contract.DefaultLimits().StartTimeout
	for _, v := range []string{"0", strconv.Itoa(lim.MaxSeconds + 1), "soon"} {
		res := s.submit(pattern(1), "X-Service-Start-Timeout", v)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", v, res.body)
		require.Equal(t, "X-Service-Start-Timeout", res.json(t)["error"].(map[string]any)["field"])
	}
	bad := s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url=http://example.com/h", pattern(1))
	require.Equal(t, http.StatusUnprocessableEntity, bad.status)
	require.Equal(t, "webhook_url", bad.json(t)["error"].(map[string]any)["field"])
}

func TestSlowAdmitAnswersTheJobHandle(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true, admitTimeout: 1500 * time.Millisecond})
	start := time.Now()
	res := s.submit(pattern(1), "Idempotency-Key", "no-worker")
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(
		t,
		http.StatusAccepted,
		res.status,
		"a job that may still hold credits is never a retryable error: %s",
		res.body,
	)
	id := res.json(t)["job_id"].(string)
	require.Regexp(t, `^j_`, id)
	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil)
	require.Equal(t, http.StatusOK, job.status, "the handle can be read at once: %s", job.body)
	require.Equal(t, "queued", job.json(t)["lifecycle"])
	require.Equal(t, int64(100), s.balance(), "nothing held yet")

	again := s.submit(pattern(1), "Idempotency-Key", "no-worker")
	require.Equal(t, http.StatusAccepted, again.status, "%s", again.body)
	require.Equal(t, id, again.json(t)["job_id"], "the retry reaches the same job")

	s.startWorker(false)
	require.Equal(t, "succeeded", s.waitTerminal(id)["outcome"])
	recordHistory(t, id, "admitted_late")
	_, per := priceOf(t, pattern(1))
	require.Equal(t, 100-per, s.balance(), "charged once, for the one output")
	require.Equal(t, s.balance(), s.ledgerSum())
}

// cutOffAdmit is a Temporal client whose first update-with-start gives up
// before reaching the server, as one cut off under a burst does.
type cutOffAdmit struct {
	client.Client
	calls *atomic.Int32
}

func (c cutOffAdmit) UpdateWithStartWorkflow(
	ctx context.Context,
	o client.UpdateWithStartWorkflowOptions,
) (client.WorkflowUpdateHandle, error) {
	if c.calls.Add(1) == 1 {
		return nil, context.DeadlineExceeded
	}
	return c.Client.UpdateWithStartWorkflow(ctx, o)
}

func TestAdmitCutOffBeforeTheStartIsSentAgain(t *testing.T) {
	t.Parallel()
	calls := new(atomic.Int32)
	s := newStack(t, stackOptions{credits: 100, admitTimeout: 2 * time.Second,
		temporal: func(c client.Client) client.Client { return cutOffAdmit{Client: c, calls: calls} }})
	res := s.submit(pattern(1))
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Equal(
		t,
		"succeeded",
		s.waitTerminal(id)["outcome"],
		"the admit sent again reaches a workflow, which runs the job",
	)
	require.Equal(t, int32(1), calls.Load(), "the API sends it once: the workers' late-admit sweep sends it again")
	_, per := priceOf(t, pattern(1))
	require.Equal(t, 100-per, s.balance(), "held and charged once")
	require.Equal(t, s.balance(), s.ledgerSum())
}

func TestSlowAdmitThatTheBalanceCannotCoverFailsTheJob(t *testing.T) {
	t.Parallel()
	held, _ := priceOf(t, pattern(2))
	s := newStack(t, stackOptions{credits: held + held/2, noWorker: true, admitTimeout: time.Second})
	var ids []string
	for range 2 {
		res := s.submit(pattern(2))
		require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
		ids = append(ids, res.json(t)["job_id"].(string))
	}
	s.startWorker(false)
	outcomes := map[string]int{}
	for _, id := range ids {
		job := s.waitTerminal(id)
		outcomes[job["outcome"].(string)]++
		if job["outcome"] == "failed" {
			e := job["error"].(map[string]any)
			require.Equal(t, "insufficient_credits", e["code"])
			require.Equal(t, id, e["job_id"])
			require.Nil(t, e["request_id"])
			recordHistory(t, id, "refused_after_handle")
		}
	}
	require.Equal(t, map[string]int{"succeeded": 1, "failed": 1}, outcomes, "the balance covers one hold")
	require.Equal(t, s.balance(), s.ledgerSum(), "no hold is left behind")
}

func TestUnknownTaskAndInvalidBody(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	res := s.do(http.MethodPost, "/v1/tasks/no.such", pattern(1))
	require.Equal(t, http.StatusNotFound, res.status)
	bad := s.submit(map[string]any{"kind": "stripes", "colors": []string{"red"}})
	require.Equal(t, http.StatusUnprocessableEntity, bad.status)
	require.Empty(t, s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"])
	notJSON := s.do(http.MethodPost, "/v1/tasks/pattern.generate", "kind=stripes", "Content-Type", "text/plain")
	require.Equal(t, http.StatusUnsupportedMediaType, notJSON.status)
	missing := s.do(http.MethodGet, "/v1/jobs/j_nope", nil)
	require.Equal(t, http.StatusNotFound, missing.status)
}

func TestOutputFilesReadAndDelete(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	res := s.submit(pattern(2), "Prefer", "wait=30").json(t)
	files := res["files"].([]any)
	first := files[0].(map[string]any)
	handle := first["file"].(string)
	require.NotNil(t, first["data"], "the file's data follows the outputSchema")

	got := s.do(http.MethodGet, "/v1/files/"+handle, nil)
	require.Equal(t, http.StatusOK, got.status, "%s", got.body)
	require.Equal(t, true, got.json(t)["deletable"])

	notArt := s.do(http.MethodDelete, "/v1/files/file:abc", nil)
	require.Equal(t, http.StatusUnprocessableEntity, notArt.status)
	require.Equal(t, "file_not_deletable", notArt.errorCode(t))
	require.Nil(t, notArt.json(t)["error"].(map[string]any)["field"])

	other := newAccountKey(t, s)
	foreign := s.doAs(other, http.MethodDelete, "/v1/files/"+handle)
	require.Equal(
		t,
		http.StatusUnprocessableEntity,
		foreign.status,
		"another account's handle is not deletable, as an unknown one",
	)
	require.Equal(t, "file_not_deletable", foreign.errorCode(t))
	require.Equal(
		t,
		http.StatusNotFound,
		s.doAs(other, http.MethodGet, "/v1/files/"+handle).status,
		"another account cannot see the file",
	)

	require.Equal(t, http.StatusOK, s.do(http.MethodDelete, "/v1/files/"+handle, nil).status)
	require.Equal(t, http.StatusNotFound, s.do(http.MethodGet, "/v1/files/"+handle, nil).status)
	require.Equal(
		t,
		http.StatusNotFound,
		s.do(http.MethodDelete, "/v1/files/"+handle, nil).status,
		"a deleted handle of one's own is not found",
	)
	dl, err := http.Get(first["url"].(string))
	require.NoError(t, err)
	dl.Body.Close()
	require.Equal(t, http.StatusNotFound, dl.StatusCode)
	rest := s.do(http.MethodGet, "/v1/jobs/"+res["job_id"].(string)+"/result", nil).json(t)
	require.Len(t, rest["files"], 1, "a deleted file leaves the result")
	_, per := priceOf(t, pattern(2))
	require.Equal(t, 100-int64(len(files))*per, s.balance(), "deleting a delivered file does not refund it")
}

func TestJobListRefusesABadCursor(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{noWorker: true})
	for _, cur := range []string{"!!", "bm9wZQ"} { // not base64; base64 of "nope"
		res := s.do(http.MethodGet, "/v1/jobs?cursor="+cur, nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", cur, res.body)
		require.Equal(t, "cursor", res.json(t)["error"].(map[string]any)["field"])
	}
}
