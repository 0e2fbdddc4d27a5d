package api

import (
	"bufio"
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/testenv"
)

// gauges are the unlabelled samples of a /metrics answer, by name.
func gauges(t *testing.T, body []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && !strings.HasPrefix(f[0], "#") {
			out[f[0]] = f[1]
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestMetricsShowTheBacklog: under a backlog, /metrics says how many jobs
// wait, how many run and how long the oldest has waited — the fleet's, read
// from the jobs of every account — and, with nothing queued, an age of 0.
func TestMetricsShowTheBacklog(t *testing.T) {
	now := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b, func(d *Deps) {
				d.Metrics, d.Now = middleware.NewHTTPMetrics(prometheus.NewRegistry()), func() time.Time { return now }
			})
			scrape := func() map[string]string {
				res := e.send(http.MethodGet, "/metrics", "")
				require.Equal(t, http.StatusOK, res.code)
				return gauges(t, res.body)
			}
			want := func(queued, running, age string) {
				t.Helper()
				g := scrape()
				require.Equal(t, queued, g["taskplatform_jobs_queued"], "queued jobs")
				require.Equal(t, running, g["taskplatform_jobs_running"], "running jobs")
				require.Equal(t, age, g["taskplatform_jobs_queued_oldest_age_seconds"], "the oldest queued job's age")
			}
			want("0", "0", "0")

			other, _, _ := e.account("standard")
			e.addJobs(t, e.user.ID,
				job{task: "pattern.generate", created: now.Add(-90 * time.Second)},
				job{task: "pattern.generate", created: now.Add(-5 * time.Second)},
				job{task: "pattern.generate", created: now.Add(-time.Hour), queued: time.Minute},
				job{task: "pattern.generate", created: now.Add(-2 * time.Hour), queued: time.Minute, ran: time.Minute,
					outcome: contract.OutcomeSucceeded},
			)
			e.addJobs(t, other.ID, job{task: "palette.generate", created: now.Add(-30 * time.Second)})
			want("3", "1", "90")

			require.NoError(t, e.db.Exec("UPDATE jobs SET lifecycle = ? WHERE lifecycle = ?",
				contract.LifecycleRunning, contract.LifecycleQueued).Error)
			want("0", "4", "0")
		})
	}
}
