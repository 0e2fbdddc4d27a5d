package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
	}, patience, 50*time.Millisecond)
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
	}, patience, 50*time.Millisecond)
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
	}, patience, 50*time.Millisecond)
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

func TestJobListRefusesABadCursor(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{noWorker: true})
	for _, cur := range []string{"!!", "bm9wZQ"} { // not base64; base64 of "nope"
		res := s.do(http.MethodGet, "/v1/jobs?cursor="+cur, nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", cur, res.body)
		require.Equal(t, "cursor", res.json(t)["error"].(map[string]any)["field"])
	}
}
