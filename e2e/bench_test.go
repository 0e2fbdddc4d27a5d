package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/workflows"
)

// BenchmarkSubmit measures, in one run against one Temporal server and one
// worker, the submit latency and throughput of the HTTP API beside a raw
// Temporal update-with-start of the same JobWorkflow with the same input.
// Steps are not polled, so both measure the admit path only.
// Run: make bench
func BenchmarkSubmit(b *testing.B) {
	s := newStack(b, stackOptions{credits: 1 << 40, noSteps: true})
	const clients = 4
	input := pattern(1)
	raw, _ := json.Marshal(input)
	hold, per := priceOf(b, input)

	apiCall := func() error {
		res := s.do(http.MethodPost, "/v1/tasks/pattern.generate", input)
		if res.status != http.StatusAccepted {
			return errStatus(res.status)
		}
		return nil
	}
	rawCall := func() error {
		in := contract.JobInput{JobID: models.NewID("j_"), Task: "pattern.generate", UserID: s.userID, APIKeyID: s.keyID, Input: raw,
			CreditType: contract.CreditService, HeldCredits: hold, PricePerOutput: per}
		op := temporalClient(b).NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: in.JobID, TaskQueue: s.queue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, workflows.JobWorkflow, in)
		h, err := temporalClient(b).UpdateWithStartWorkflow(context.Background(), client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
			UpdateOptions: client.UpdateWorkflowOptions{UpdateID: contract.AdmitUpdateID, UpdateName: contract.UpdateAdmit, WaitForStage: client.WorkflowUpdateStageCompleted}})
		if err != nil {
			return err
		}
		var r contract.AdmitResult
		return h.Get(context.Background(), &r)
	}
	// Warm both paths (connections, caches, worker).
	for range 5 {
		require.NoError(b, apiCall())
		require.NoError(b, rawCall())
	}
	b.ResetTimer()
	apiLat, rawLat := measure(b, b.N, clients, apiCall, rawCall)
	b.StopTimer()
	apiRate, rawRate := rate(apiLat, clients), rate(rawLat, clients)
	b.ReportMetric(pct(apiLat, 50), "api_p50_ms")
	b.ReportMetric(pct(apiLat, 99), "api_p99_ms")
	b.ReportMetric(apiRate, "api_jobs/s")
	b.ReportMetric(pct(rawLat, 50), "raw_p50_ms")
	b.ReportMetric(pct(rawLat, 99), "raw_p99_ms")
	b.ReportMetric(rawRate, "raw_jobs/s")
	b.ReportMetric(pct(apiLat, 50)/pct(rawLat, 50), "p50_ratio")
	b.ReportMetric(rawRate/apiRate, "throughput_ratio")
}

// measure runs n rounds over c concurrent clients; each round makes one
// call of each kind, in alternating order, so both see the same machine and
// server. It returns each kind's latencies in milliseconds.
func measure(b *testing.B, n, c int, first, second func() error) ([]float64, []float64) {
	var mu sync.Mutex
	var latA, latB []float64
	work := make(chan int, n)
	for i := range n {
		work <- i
	}
	close(work)
	timed := func(call func() error, into *[]float64) bool {
		t0 := time.Now()
		if err := call(); err != nil {
			b.Error(err)
			return false
		}
		d := float64(time.Since(t0).Microseconds()) / 1000
		mu.Lock()
		*into = append(*into, d)
		mu.Unlock()
		return true
	}
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if i%2 == 0 {
					if !timed(first, &latA) || !timed(second, &latB) {
						return
					}
				} else if !timed(second, &latB) || !timed(first, &latA) {
					return
				}
			}
		}()
	}
	wg.Wait()
	return latA, latB
}

// rate is the calls per second c clients make at these latencies.
func rate(lat []float64, c int) float64 {
	var sum float64
	for _, v := range lat {
		sum += v
	}
	if sum == 0 {
		return 0
	}
	return float64(c) * float64(len(lat)) / (sum / 1000)
}

func pct(v []float64, p int) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

type errStatus int

func (e errStatus) Error() string { return "unexpected status " + http.StatusText(int(e)) }
