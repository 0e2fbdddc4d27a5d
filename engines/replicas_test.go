package engines_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/testenv"
)

// replicated is a registry whose sdxl engine runs in sync mode on the
// replicas urls, counting its predictions through leases.
func replicated(t *testing.T, leases engines.Leases, urls ...string) *tasks.Definition {
	t.Helper()
	cfg := example(t, urls[0], func(c *engines.Config) {
		e := mode(c.Engines["sdxl"], "sync")
		e.URL, e.URLs = "", urls
		c.Engines["sdxl"] = e
	})
	cl := clients(false)
	cl.Leases = leases
	r, _ := assemble(t, cfg, cl)
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	return d
}

// stepOfJob runs output 0 of job's step.
func stepOfJob(ctx context.Context, t *testing.T, d *tasks.Definition, job string) error {
	t.Helper()
	in, err := d.Validate([]byte(`{"prompt":"a shirt"}`))
	require.NoError(t, err)
	_, err = d.Runner.Step(tasks.WithStep(ctx, tasks.Step{JobID: job, Index: 0, Attempt: 1}), in, 0)
	return err
}

// sharedLeases are leases on a database of their own.
func sharedLeases(t *testing.T) engines.Leases {
	db := testenv.DB(t, testenv.SQLite)
	return models.EngineLeases{DB: func() *gorm.DB { return db }}
}

func TestTwoWorkersShareTwoReplicasWithoutEverOverfillingOne(t *testing.T) {
	a := fake(t, cogtest.Options{Run: 300 * time.Millisecond})
	b := fake(t, cogtest.Options{Run: 300 * time.Millisecond})
	leases := sharedLeases(t)
	// Two registries stand for two worker processes sharing one database.
	workers := []*tasks.Definition{replicated(t, leases, a.URL, b.URL), replicated(t, leases, a.URL, b.URL)}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- stepOfJob(context.Background(), t, workers[i%2], fmt.Sprintf("j_%d", i))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, a.Inputs(), len(a.Requests()), "replica a refused nothing: it was never sent two at once")
	require.Len(t, b.Inputs(), len(b.Requests()), "replica b refused nothing")
	require.Equal(t, 8, len(a.Inputs())+len(b.Inputs()))
	require.NotEmpty(t, a.Inputs(), "the predictions spread over both replicas")
	require.NotEmpty(t, b.Inputs())
}

func TestAReplicaThatIsDownIsSkipped(t *testing.T) {
	for _, tc := range []struct {
		name string
		down func(t *testing.T) string
	}{
		{"not answering", func(t *testing.T) string {
			s := cogtest.New(cogtest.Options{})
			s.Close()
			return s.URL
		}},
		{"its setup failed", func(t *testing.T) string { return fake(t, cogtest.Options{SetupFailed: true}).URL }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := fake(t, cogtest.Options{Run: 50 * time.Millisecond})
			d := replicated(t, sharedLeases(t), tc.down(t), up.URL)
			for i := range 4 {
				require.NoError(t, stepOfJob(context.Background(), t, d, fmt.Sprintf("j_%d", i)))
			}
			require.Len(t, up.Inputs(), 4, "every prediction went to the replica that is up")
		})
	}
}

func TestEveryAttemptOfAStepGoesToTheSameReplica(t *testing.T) {
	a := fake(t, cogtest.Options{})
	b := fake(t, cogtest.Options{})
	d := replicated(t, sharedLeases(t), a.URL, b.URL)
	onA := func(job string) bool {
		n := len(a.Inputs())
		require.NoError(t, stepOfJob(context.Background(), t, d, job))
		return len(a.Inputs()) > n
	}
	used := map[bool]int{}
	for i := range 8 {
		job := fmt.Sprintf("j_%d", i)
		first := onA(job)
		require.Equal(t, first, onA(job), "the second attempt of %s went where the first went", job)
		used[first]++
	}
	require.Len(t, used, 2, "the steps spread over both replicas: %v", used)
}

func TestALoadingModelIsWaitedForItsSetupAllowanceNotTheBusyWait(t *testing.T) {
	srv := fake(t, cogtest.Options{Setup: 2 * time.Second})
	cfg := example(t, srv.URL, func(c *engines.Config) {
		e := mode(c.Engines["sdxl"], "sync")
		e.Wait, e.Setup = "500ms", "20s" // health STARTING: 409s waited for up to 20 s, not 0.5 s
		c.Engines["sdxl"] = e
	})
	r, _ := assemble(t, cfg, clients(false))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	require.NoError(t, stepOfJob(context.Background(), t, d, "j_setup"))
	require.Len(t, srv.Inputs(), 1)
	require.Greater(t, len(srv.Requests()), 1, "the loading model's 409s were waited through")
}
