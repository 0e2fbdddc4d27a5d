package e2e_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestBurstWithoutKeysStartsOneJobPerBody is a client following the spec's
// retry rule 1 (resend when the error says retryable) through a burst of
// submits without Idempotency-Key, with an admit bound short enough that
// admission falls behind: every body must start exactly one job, and the
// ledger must hold exactly what those jobs delivered. It is not parallel:
// it runs alone, before the package's parallel tests (see parallel).
func TestBurstWithoutKeysStartsOneJobPerBody(t *testing.T) {
	const requests, concurrency = 300, 200
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			// Alone, the burst has the connections of the binary's pool
			// (models.Open), not a parallel test's share.
			s := newStack(t, stackOptions{backend: b, credits: 100000, admitTimeout: 2 * time.Second, maxConns: 40})
			sem := make(chan struct{}, concurrency)
			var wg sync.WaitGroup
			var mu sync.Mutex
			statuses := map[int]int{}
			var errs []error
			for seed := range requests {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					body := map[string]any{
						"kind":       "stripes",
						"colors":     []string{"#1F3A5F"},
						"count":      1,
						"resolution": "512",
						"seed":       seed,
					}
					for attempt := 0; ; attempt++ {
						res, err := s.trySubmit(body)
						if err != nil {
							mu.Lock()
							errs = append(errs, err)
							mu.Unlock()
							return
						}
						e := res.errorFields()
						if e == nil || e["retryable"] != true || attempt == 5 {
							mu.Lock()
							statuses[res.status]++
							mu.Unlock()
							return
						}
						time.Sleep(time.Second)
					}
				}()
			}
			wg.Wait()
			require.Empty(t, errs)
			require.Equal(
				t,
				map[int]int{http.StatusAccepted: requests},
				statuses,
				"every submit answers its job's handle",
			)

			var jobs []models.Job
			require.Eventually(t, func() bool {
				jobs = nil
				require.NoError(t, s.db.Where("user_id = ?", s.userID).Find(&jobs).Error)
				for _, j := range jobs {
					if j.Lifecycle != contract.LifecycleTerminal {
						return false
					}
				}
				return len(jobs) > 0
			}, 5*time.Minute, 500*time.Millisecond, "every job ends")
			seeds := map[string]int{}
			var charged int64
			for _, j := range jobs {
				seeds[j.Input]++
				require.Equal(t, contract.OutcomeSucceeded, *j.Outcome, "job %s", j.ID)
				charged += j.ChargedCredits
				require.Equal(
					t,
					j.PricePerOutput*int64(j.ProgressDone),
					j.ChargedCredits,
					"job %s is charged for what it delivered",
					j.ID,
				)
			}
			require.Len(t, jobs, requests, "one job per distinct body")
			require.Len(t, seeds, requests, "no body started two jobs")
			require.Equal(t, int64(100000)-charged, s.balance())
			require.Equal(t, s.balance(), s.ledgerSum(), "no hold is left behind")
		})
	}
}
