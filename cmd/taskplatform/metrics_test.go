package main

import (
	"bufio"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// metricRow is a metric name in the operations page's table: the first cell of a
// row under "### Metrics", in backquotes; a name ending in * is a prefix.
var metricRow = regexp.MustCompile("^\\| `([a-z_:*]+)`")

// documentedMetrics are the names the metrics table of docs/operations.md lists.
func documentedMetrics(t *testing.T) []string {
	t.Helper()
	raw, err := testenv.GuidePageText("docs/operations.md")
	require.NoError(t, err)
	var names []string
	in := false
	for _, line := range strings.Split(raw, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			in = line == "### Metrics"
		case in:
			if m := metricRow.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
			}
		}
	}
	require.NotEmpty(t, names, "docs/operations.md has a metrics table under ### Metrics")
	return names
}

// scrape is GET /metrics: each family's name and the sample lines.
func scrape(t *testing.T, base string) (map[string]bool, []string) {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	families := map[string]bool{}
	var samples []string
	sc := bufio.NewScanner(io.LimitReader(res.Body, 16<<20))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			families[f[2]] = true
		} else if line != "" && !strings.HasPrefix(line, "#") {
			samples = append(samples, line)
		}
	}
	require.NoError(t, sc.Err())
	return families, samples
}

// TestDevServesDocumentedMetrics runs one job on `taskplatform dev` (no
// OTEL_* variable set) and reads /metrics: every name the README's table
// lists is served, the HTTP API's and the Temporal SDK's beside the
// service's own, and the job's settlement is counted. The job's tiles are
// 2048 px, too big to run inside its admit, so its steps are activities.
func TestDevServesDocumentedMetrics(t *testing.T) {
	t.Parallel()
	dev := startReady(t, t.TempDir(), "")
	req, err := http.NewRequest(
		http.MethodPost,
		dev.base+"/v1/tasks/pattern.generate",
		strings.NewReader(`{"kind":"stripes","colors":["#203040","#E0D0C0"],"count":2,"resolution":"2048"}`),
	)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+dev.key(t))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Prefer", "wait=60")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the job ends within the wait: %s", body)

	// The answer comes once the job is settled; the SDK counts the
	// workflow's completion a moment later, when its last task is done.
	families, samples := scrape(t, dev.base)
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if len(values(samples, "temporal_workflow_completed_total", `workflow_type="JobWorkflow"`)) > 0 {
			break
		}
		families, samples = scrape(t, dev.base)
	}
	served := slices.Sorted(maps.Keys(families))
	for _, name := range documentedMetrics(t) {
		if prefix, ok := strings.CutSuffix(name, "*"); ok {
			require.True(
				t,
				slices.ContainsFunc(served, func(s string) bool { return strings.HasPrefix(s, prefix) }),
				"a metric named %s… is served; /metrics has %v",
				prefix,
				served,
			)
			continue
		}
		require.True(t, families[name], "%s is served; /metrics has %v", name, served)
	}
	require.Equal(
		t,
		[]string{"1"},
		values(samples, "taskplatform_jobs_settled_total", `outcome="succeeded"`, `task="pattern.generate"`),
		"the job is counted once",
	)
	require.Equal(
		t,
		[]string{"2"},
		values(samples, "taskplatform_outputs_delivered_total", `outcome="succeeded"`, `task="pattern.generate"`),
		"with its two outputs",
	)
	require.NotEmpty(t, values(samples, "temporal_workflow_completed_total", `workflow_type="JobWorkflow"`),
		"the job's workflow is counted as completed")
}

// values are the values of the samples of a family that carry every label
// (name="value") given.
func values(samples []string, family string, labels ...string) []string {
	var out []string
	for _, s := range samples {
		series, value, ok := strings.Cut(s, " ")
		name, rest, _ := strings.Cut(series, "{")
		if !ok || name != family {
			continue
		}
		set := strings.Split(strings.TrimSuffix(rest, "}"), ",")
		if !slices.ContainsFunc(labels, func(l string) bool { return !slices.Contains(set, l) }) {
			out = append(out, value)
		}
	}
	return out
}
