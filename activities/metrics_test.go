package activities_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/activities"
)

// TestJobMetricsHaveTheirOwnLabelsAndHelp: the business counters are
// served with a help text and the labels task and outcome only (not the
// Temporal SDK's activity_type, namespace, task_queue…), as the README's
// metrics table lists them; nothing is served before a job settles.
func TestJobMetricsHaveTheirOwnLabelsAndHelp(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := activities.NewJobMetrics(reg)
	n, err := testutil.GatherAndCount(reg)
	require.NoError(t, err)
	require.Zero(t, n)
	activities.CountSettled(m, "pattern.generate", "succeeded", 2, 40)
	activities.CountSettled(m, "pattern.generate", "cancelled", 1, 20)
	activities.CountSettled(nil, "pattern.generate", "failed", 0, 0) // no metrics: counts nothing
	want := `# HELP taskplatform_credits_charged_total Credits charged at settlement, by task and outcome.
# TYPE taskplatform_credits_charged_total counter
taskplatform_credits_charged_total{outcome="cancelled",task="pattern.generate"} 20
taskplatform_credits_charged_total{outcome="succeeded",task="pattern.generate"} 40
# HELP taskplatform_jobs_settled_total Jobs settled, by task and outcome.
# TYPE taskplatform_jobs_settled_total counter
taskplatform_jobs_settled_total{outcome="cancelled",task="pattern.generate"} 1
taskplatform_jobs_settled_total{outcome="succeeded",task="pattern.generate"} 1
# HELP taskplatform_outputs_delivered_total Outputs delivered (and charged) by the settled jobs, by task and outcome.
# TYPE taskplatform_outputs_delivered_total counter
taskplatform_outputs_delivered_total{outcome="cancelled",task="pattern.generate"} 1
taskplatform_outputs_delivered_total{outcome="succeeded",task="pattern.generate"} 2
`
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(want)))
}
