package e2e_test

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"
	"go.uber.org/zap/zaptest"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/enginehooks"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// engineStack is a stack whose catalogue is docs/engines/sdxl.yaml (an
// operator's TP_ENGINES) with its engine at a Cog test server, and the
// server.
func engineStack(t *testing.T, o cogtest.Options, so stackOptions) (*testStack, *cogtest.Server) {
	t.Helper()
	return engineStackWith(t, o, so, nil)
}

// engineStackWith is engineStack with the configuration edited first.
func engineStackWith(t *testing.T, o cogtest.Options, so stackOptions,
	edit func(*engines.Config)) (*testStack, *cogtest.Server) {
	t.Helper()
	cog := cogtest.New(o)
	t.Cleanup(cog.Close)
	raw, err := os.ReadFile(filepath.Join("..", "docs", "engines", "sdxl.yaml"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "engines.yaml")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), "http://127.0.0.1:5000", cog.URL)),
		0o600))
	cfg, err := engines.Load(path)
	require.NoError(t, err)
	e := cfg.Engines["sdxl"]
	e.WebhookListen, e.WebhookURL = "127.0.0.1:0", "" // the worker's receiver on a free port
	if o.Slots > 1 {
		e.Concurrency = o.Slots // the worker sends as many at once as the server runs
	}
	e.UploadURL = ""
	if o.AsURL {
		e.UploadURL = cog.URL + "/files/" // its files are its upload store's: async
	}
	e.Wait = "2s" // a busy engine ends a step's attempt after 2 s
	cfg.Engines["sdxl"] = e
	if edit != nil {
		edit(cfg)
	}
	// An async engine without webhook_listen reports to the stack's API
	// (its address is known once the stack has started). Predictions lease
	// their replica's slots in the stack's database, as the binary's do
	// (cmd/taskplatform, taskRegistry): the admit's queue_limit count reads
	// those leases.
	var s *testStack
	stackDB := func() *gorm.DB { return s.db }
	hooks := &enginehooks.Store{DB: stackDB}
	cl := engines.Clients{Fetch: outbound.New(outbound.Options{AllowPrivate: true, Timeout: 5 * time.Second}),
		Completions: hooks, Leases: models.EngineLeases{DB: stackDB}}
	so.registry, err = engines.Assemble(cfg, all.Families(), cl, zaptest.NewLogger(t))
	require.NoError(t, err)
	so.credits = 100
	s = newStack(t, so)
	hooks.Base = s.srv.URL
	return s, cog
}

func TestDeclaredTaskOnACogServerRunsEndToEnd(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s, cog := engineStack(t, cogtest.Options{AsURL: true, Run: 200 * time.Millisecond},
		stackOptions{rootCAs: rcv.pool()})

	task := s.do(http.MethodGet, "/v1/tasks/image.generate_sdxl", nil)
	require.Equal(t, http.StatusOK, task.status, "%s", task.body)
	require.Contains(t, string(task.body), "content_refused")
	for _, path := range []string{"/v1/openapi.json", "/v1/tasks/llms.txt", "/v1/pricing"} {
		res := s.do(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, res.status, path)
		require.Contains(t, string(res.body), "image.generate_sdxl", path)
	}
	requireExamplesRunNoPrediction(t, s, cog, "image.generate_sdxl")

	res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl?webhook_url="+url.QueryEscape(rcv.srv.URL+"/hook"),
		map[string]any{"prompt": "a sage linen shirt on an oak chair", "count": 2, "seed": 5}, "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	body := res.json(t)
	files := body["files"].([]any)
	require.Len(t, files, 2)
	for i, f := range files {
		f := f.(map[string]any)
		require.Equal(t, "image/png", f["media_type"])
		require.Equal(t, map[string]any{"engine": "sdxl", "index": float64(i)}, f["data"])
	}
	seeds := []any{}
	for _, in := range cog.Inputs() {
		seeds = append(seeds, in["seed"])
	}
	require.ElementsMatch(t, []any{float64(5), float64(6)}, seeds, "one prediction per output, seed + index")
	require.Equal(t, []string{"sdxl", "sdxl"}, stepEngines(t, s, body["job_id"].(string)),
		"each step's result names its engine (the Temporal UI shows it)")
	require.Equal(t, int64(100-2*4), s.balance(), "4 credits an output, charged once each")
	require.Equal(t, s.balance(), s.ledgerSum(), "the ledger explains the balance")
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 50*time.Millisecond)
	require.Equal(t, "job.succeeded", rcv.events()[0])
	verify(t, s.jwks(t), rcv.deliveries()[0])
}

// stepEngines are the Engine of every RunStep result in job id's history,
// in order.
func stepEngines(t *testing.T, s *testStack, id string) []string {
	t.Helper()
	steps := map[int64]bool{} // scheduled event ids of RunStep
	out := []string{}
	it := s.temporal.GetWorkflowHistory(context.Background(), id, "", false,
		enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		require.NoError(t, err)
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			steps[ev.GetEventId()] = a.GetActivityType().GetName() == contract.ActivityRunStep
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && steps[a.GetScheduledEventId()] {
			var res contract.StepResult
			require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(a.GetResult(), &res))
			out = append(out, res.Engine)
		}
	}
	return out
}

// requireExamplesRunNoPrediction reads task's examples, and a file of its
// first, without a key: the requests are listed, no file is made, and the
// engine is not asked.
func requireExamplesRunNoPrediction(t *testing.T, s *testStack, cog *cogtest.Server, task string) {
	t.Helper()
	before := len(cog.Requests())
	res := s.do(http.MethodGet, "/v1/tasks/"+task+"/examples", nil)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	items := res.json(t)["items"].([]any)
	require.NotEmpty(t, items)
	for _, it := range items {
		ex := it.(map[string]any)
		require.NotEmpty(t, ex["request"].(map[string]any)["body"])
		require.Empty(t, ex["files_delivered"], "a public read runs no prediction")
	}
	name := items[0].(map[string]any)["name"].(string)
	res = s.do(http.MethodGet, "/v1/tasks/"+task+"/examples/"+name+"/files/0", nil)
	require.Equal(t, http.StatusNotFound, res.status, "%s", res.body)
	require.Len(t, cog.Requests(), before, "the engine was not asked")
}

func TestCancelledJobCancelsItsPrediction(t *testing.T) {
	t.Parallel()
	s, cog := engineStack(t, cogtest.Options{Run: time.Minute}, stackOptions{})
	res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl", map[string]any{"prompt": "a shirt"})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return cog.Running() == 1 }, patience, 20*time.Millisecond)
	require.Equal(t, http.StatusAccepted, s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil).status)
	job := s.waitTerminal(id)
	require.Equal(t, "cancelled", job["outcome"])
	require.Eventually(t, func() bool { return len(cog.Cancelled()) == 1 }, patience, 20*time.Millisecond,
		"the prediction is cancelled on the engine")
	require.Equal(t, int64(100), s.balance(), "nothing delivered, nothing charged")
	require.Equal(t, s.balance(), s.ledgerSum())
}

func TestEngineFailuresFailTheJobWithTheSpecsCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		o       cogtest.Options
		code    string
		history string
	}{
		{"the model refuses", cogtest.Options{Fail: "NSFW content detected."}, "content_refused", ""},
		{"the model fails", cogtest.Options{Fail: "CUDA out of memory"}, "processing_failed", ""},
		{"the engine stays busy", cogtest.Options{Busy: 100}, "capacity_busy", "engine_capacity_busy"},
		// The model's setup() raised: the service's fault, not the input's.
		{"the model's setup failed", cogtest.Options{SetupFailed: true}, "service_unavailable", "engine_setup_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := engineStack(t, tc.o, stackOptions{})
			res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl", map[string]any{"prompt": "a shirt"})
			require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
			id := res.json(t)["job_id"].(string)
			job := s.waitTerminal(id)
			require.Equal(t, "failed", job["outcome"], "%v", job)
			e := job["error"].(map[string]any)
			require.Equal(t, tc.code, e["code"], "%v", e)
			require.NotContains(t, e["message"], "CUDA", "the engine's words stay in the logs")
			if tc.code == "service_unavailable" {
				require.Equal(t, true, e["retryable"], "the caller may submit again: %v", e)
			}
			require.Equal(t, int64(100), s.balance())
			require.Equal(t, s.balance(), s.ledgerSum())
			if tc.history != "" {
				recordHistory(t, id, tc.history)
			}
		})
	}
}

// TestAnOutputThatEndsTheJobStopsTheOthers: in a job of four images whose
// second one the model server keeps answering busy, or refuses, that
// output fails the job (capacity_busy once its retries are spent,
// content_refused at once) and the job ends with it: the predictions of
// the outputs running beside it are cancelled on the engine, not waited
// for, and only the image delivered before is charged.
func TestAnOutputThatEndsTheJobStopsTheOthers(t *testing.T) {
	t.Parallel()
	seed := func(in map[string]any) float64 { v, _ := in["seed"].(float64); return v }
	for _, tc := range []struct {
		name    string
		o       cogtest.Options
		code    string
		sent    []float64 // the seeds of the predictions the server took in
		history string
	}{
		{
			name: "the engine stays busy for image 2",
			o:    cogtest.Options{BusyFor: func(in map[string]any) bool { return seed(in) == 6 }},
			code: "capacity_busy", sent: []float64{5, 7, 8}, history: "parallel_capacity_busy",
		},
		{
			name: "the model refuses image 2",
			o: cogtest.Options{FailFor: func(in map[string]any) string {
				if seed(in) == 6 {
					return "NSFW content detected."
				}
				return ""
			}},
			code: "content_refused", sent: []float64{5, 6, 7, 8}, history: "parallel_refused",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.o.Slots = 4
			tc.o.RunFor = func(in map[string]any) time.Duration {
				switch seed(in) {
				case 5: // the first image, which comes with the plan
					return time.Millisecond
				case 6:
					return 100 * time.Millisecond
				}
				return time.Minute
			}
			// Image 2's answer waits until images 3 and 4 run on the
			// engine, however late a loaded machine starts their steps.
			others := make(chan struct{})
			tc.o.Hold = func(in map[string]any) <-chan struct{} {
				if seed(in) == 6 {
					return others
				}
				return nil
			}
			s, cog := engineStack(t, tc.o, stackOptions{})
			go func() {
				defer close(others)
				for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
					if running := seedsSent(cog, seed); running[7] && running[8] {
						return
					}
				}
			}()
			res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl",
				map[string]any{"prompt": "a shirt", "count": 4, "seed": 5})
			require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
			id := res.json(t)["job_id"].(string)
			began := time.Now()
			job := s.waitTerminal(id)
			require.Less(t, time.Since(began), 45*time.Second, "the job did not wait for the other predictions")
			require.Equal(t, "failed", job["outcome"], "%v", job)
			require.Equal(t, tc.code, job["error"].(map[string]any)["code"], "%v", job)
			// A step whose heartbeat came late on a loaded machine is
			// tried again, with a prediction of its own: count what runs,
			// not how many predictions were made.
			sent := len(cog.Inputs())
			require.Eventually(t, func() bool { return cog.Running() == 0 }, 10*time.Second,
				20*time.Millisecond, "the predictions of images 3 and 4 are cancelled on the engine")
			require.GreaterOrEqual(t, len(cog.Cancelled()), 2, "through the engine's API")
			require.Len(t, cog.Inputs(), sent, "nothing is sent after the job failed")
			require.Equal(t, tc.sent, slices.Sorted(maps.Keys(seedsSent(cog, seed))), "the images sent to the engine")
			require.Equal(t, int64(100-4), s.balance(), "the image delivered before the job failed is charged")
			require.Equal(t, s.balance(), s.ledgerSum(), "the ledger explains the balance")
			recordHistory(t, id, tc.history)
		})
	}
}

// seedsSent is the set of seeds of the predictions cog took in.
func seedsSent(cog *cogtest.Server, seed func(map[string]any) float64) map[float64]bool {
	sent := map[float64]bool{}
	for _, in := range cog.Inputs() {
		sent[seed(in)] = true
	}
	return sent
}

func TestBuiltInTaskRoutedToAnEngineRunsOnIt(t *testing.T) {
	t.Parallel()
	// The model makes the size it is asked (the route maps resolution to
	// width and height), as an image model does: an output of another size
	// than its data states is refused.
	s, cog := engineStack(t, cogtest.Options{Sized: true}, stackOptions{})
	requireExamplesRunNoPrediction(t, s, cog, "pattern.generate")
	input := pattern(2)
	input["resolution"] = "512"
	res := s.submit(input, "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	result := res.json(t)
	files := result["files"].([]any)
	require.Len(t, files, 2)
	require.Len(t, cog.Inputs(), 2, "each output one prediction")
	require.Equal(t, []string{"sdxl", "sdxl"}, stepEngines(t, s, result["job_id"].(string)))
	require.EqualValues(t, 512, files[0].(map[string]any)["data"].(map[string]any)["width"],
		"the model's image, of the size asked")
	_, per := priceOf(t, input)
	require.Equal(t, 100-2*per, s.balance())
	require.Equal(t, s.balance(), s.ledgerSum())
	d, err := s.acts.Tasks.Lookup("pattern.generate")
	require.NoError(t, err)
	require.Implements(t, (*tasks.EngineRunner)(nil), d.Runner)
}

// TestEngineStepsLeaveTheBuiltInStepsSlotsFree: with one step slot in the
// worker, a built-in job submitted while an engine's prediction runs
// delivers before that prediction ends: engine steps wait and run on their
// engine's own queue.
func TestEngineStepsLeaveTheBuiltInStepsSlotsFree(t *testing.T) {
	t.Parallel()
	s, cog := engineStackWith(t, cogtest.Options{Run: 6 * time.Second}, stackOptions{maxSteps: 1, noInline: true},
		func(c *engines.Config) { delete(c.Routes, "pattern.generate") })
	res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl", map[string]any{"prompt": "a shirt", "count": 2})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	engineJob := res.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return cog.Running() == 1 }, patience, 20*time.Millisecond)
	started := time.Now()
	res = s.do(http.MethodPost, "/v1/tasks/pattern.generate", pattern(1), "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	require.Len(t, res.json(t)["files"], 1, "%s", res.body)
	require.Less(t, time.Since(started), 5*time.Second, "the built-in job did not wait behind the engine's")
	require.Equal(t, 1, cog.Running(), "the engine's prediction still runs")
	job := s.waitTerminal(engineJob)
	require.Equal(t, "succeeded", job["outcome"], "%v", job)
}
