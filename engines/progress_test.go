package engines_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
)

// progressSeen records what a step reported of its model's progress.
type progressSeen struct {
	mu   sync.Mutex
	seen []string
}

func (p *progressSeen) Report(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) == 0 || p.seen[len(p.seen)-1] != s {
		p.seen = append(p.seen, s)
	}
}

func (p *progressSeen) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seen)
}

// An async prediction's logs webhooks, as Cog sends them while the model
// prints its progress, reach the step's taker of progress as they come,
// before the prediction ends; the step still ends as soon as it has.
func TestAnAsyncPredictionsLogsReportItsProgressWhileItRuns(t *testing.T) {
	defer engines.SetPolling(10*time.Second, 100*time.Millisecond)()
	srv := fake(t, cogtest.Options{Run: 3 * time.Second, Progress: 6, AsURL: true})
	r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
		c.Engines["sdxl"] = withStore(c.Engines["sdxl"], "async-service", srv)
	}), modeClients(t, "async-service"))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	seen := &progressSeen{}
	ctx := engines.WithProgress(context.Background(), seen)
	started := time.Now()
	require.NoError(t, stepOf(ctx, t, d, 1))
	took := time.Since(started)
	require.Less(t, took, 8*time.Second, "the step ended with its prediction, not at the next probe (10 s)")
	got := seen.all()
	require.GreaterOrEqual(t, len(got), 3, "progress reported as it came: %v", got)
	require.Equal(t, "1/6", got[0], "the first progress line")
	for _, s := range got {
		require.Regexp(t, `^[1-6]/6$`, s)
	}
	require.Contains(t, srv.Requests()[0].Events, "logs", "the prediction asked for its logs")
	hooks := srv.Webhooks()
	require.Contains(t, hooks, "logs processing")
	require.Equal(t, "completed succeeded", hooks[len(hooks)-1])
}

// A sync prediction reports nothing while it runs: Cog answers its logs
// only with its end.
func TestASyncPredictionReportsNoProgress(t *testing.T) {
	srv := fake(t, cogtest.Options{Run: 600 * time.Millisecond, Progress: 3})
	r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
		c.Engines["sdxl"] = mode(c.Engines["sdxl"], "sync")
	}), clients(true))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	seen := &progressSeen{}
	require.NoError(t, stepOf(engines.WithProgress(context.Background(), seen), t, d, 1))
	require.Empty(t, seen.all())
}

func TestProgressIsReadFromTheLastLineOfTheLogs(t *testing.T) {
	for logs, want := range map[string]string{
		"loading weights\nprogress 3/20\n": "3/20",
		"step 7 / 50":                      "7/50",
		"  0%|          | 0/20 [00:00<?, ?it/s]\r 45%|████▌     | 9/20": "45%",
		"progress 3/20\nloading the refiner\n":                          "",
		"saved /tmp/out.png\n":                                          "",
		"":                                                              "",
		"12/10":                                                         "",
		"\x1b[2K 100%|██████████| 20/20\n\n": "100%",
	} {
		require.Equal(t, want, engines.ProgressOf(logs), "%q", logs)
	}
}
