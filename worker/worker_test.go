package worker_test

import (
	"context"
	"net"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// The package's Temporal dev server, started by the first test that needs it.
var (
	devOnce   sync.Once
	devServer *testsuite.DevServer
	devErr    error
)

func temporalServer(t *testing.T) *testsuite.DevServer {
	t.Helper()
	devOnce.Do(func() { devServer, devErr = testenv.StartTemporal() })
	require.NoError(t, devErr, "Temporal dev server")
	return devServer
}

func TestMain(m *testing.M) {
	code := m.Run()
	if devServer != nil {
		_ = devServer.Stop()
	}
	os.Exit(code)
}

// registry records what Register adds.
type registry struct {
	workflows  []string
	activities []any
}

func (r *registry) RegisterWorkflowWithOptions(_ any, o workflow.RegisterOptions) {
	r.workflows = append(r.workflows, o.Name)
}
func (r *registry) RegisterActivity(a any) { r.activities = append(r.activities, a) }

func TestRegisterAddsTheContractsWorkflowsAndTheActivities(t *testing.T) {
	var r registry
	acts := &activities.Activities{}
	worker.Register(&r, acts)
	require.Equal(
		t,
		[]string{contract.JobWorkflow, contract.WebhookDeliveryWorkflow, contract.NoticesWorkflow},
		r.workflows,
	)
	require.Equal(t, []any{acts}, r.activities)
}

func TestDial(t *testing.T) {
	t.Run("a running Temporal", func(t *testing.T) {
		srv := temporalServer(t)
		c, err := worker.Dial(context.Background(), srv.FrontendHostPort(), "default", zap.NewNop(), nil)
		require.NoError(t, err)
		defer c.Close()
		_, err = c.CheckHealth(context.Background(), &client.CheckHealthRequest{})
		require.NoError(t, err)
	})
	t.Run("nothing listening fails fast and names the address", func(t *testing.T) {
		addr := nothingListening(t)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		started := time.Now()
		_, err := worker.Dial(ctx, addr, "default", nil, nil)
		require.ErrorContains(t, err, "connect to Temporal at "+addr)
		require.Less(t, time.Since(started), 10*time.Second)
	})
}

func TestRegisterSearchAttributes(t *testing.T) {
	srv := temporalServer(t)
	c := srv.Client()
	ctx := context.Background()
	for range 2 { // present already: still fine
		require.NoError(t, worker.RegisterSearchAttributes(ctx, c, "default"))
	}
	res, err := c.OperatorService().
		ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	require.NoError(t, err)
	for _, k := range jobstart.SearchAttributes {
		require.Equal(t, enumspb.INDEXED_VALUE_TYPE_KEYWORD, res.GetCustomAttributes()[k.GetName()], k.GetName())
	}

	err = worker.RegisterSearchAttributes(ctx, c, "no-such-namespace-"+models.NewID(""))
	require.ErrorContains(t, err, "register search attributes")
}

// TestWorkerPollsItsQueues starts workers on fresh queues: every worker
// polls the job queue for workflows; one with steps also polls the steps
// queue and the analysis queue for activities, and one with NoSteps (the
// start deadline's tests) leaves the steps waiting in their queue.
func TestWorkerPollsItsQueues(t *testing.T) {
	srv := temporalServer(t)
	c := srv.Client()
	tests := []struct {
		name    string
		noSteps bool
	}{
		{name: "with steps"},
		{name: "without steps", noSteps: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			queue := "tq-" + models.NewID("")
			w := worker.New(
				c,
				&activities.Activities{},
				worker.Options{TaskQueue: queue, NoSteps: tt.noSteps, MaxConcurrentSteps: 1, AnalysisCapacity: 1},
			)
			require.NoError(t, w.Start())
			defer w.Stop()

			pollers := func(q string, kind enumspb.TaskQueueType) int {
				res, err := c.DescribeTaskQueue(context.Background(), q, kind)
				require.NoError(t, err)
				return len(res.GetPollers())
			}
			require.Eventually(
				t,
				func() bool { return pollers(queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW) > 0 },
				10*time.Second,
				50*time.Millisecond,
				"the job queue is polled for workflows",
			)
			require.Eventually(
				t,
				func() bool { return pollers(queue, enumspb.TASK_QUEUE_TYPE_ACTIVITY) > 0 },
				10*time.Second,
				50*time.Millisecond,
				"the job queue is polled for holds and settlements",
			)
			steps, analysis := contract.StepsQueue(queue), contract.CapacityQueue(queue, contract.QueueAnalysis)
			if tt.noSteps {
				time.Sleep(time.Second) // the steps pollers would have started with the job queue's
				require.Zero(t, pollers(steps, enumspb.TASK_QUEUE_TYPE_ACTIVITY), "nobody polls the steps")
				require.Zero(t, pollers(analysis, enumspb.TASK_QUEUE_TYPE_ACTIVITY), "nobody polls the analysis steps")
				return
			}
			for _, q := range []string{steps, analysis} {
				require.Eventually(
					t,
					func() bool { return pollers(q, enumspb.TASK_QUEUE_TYPE_ACTIVITY) > 0 },
					10*time.Second,
					50*time.Millisecond,
					"%s is polled",
					q,
				)
			}
		})
	}
}

// nothingListening is a local address nobody listens on.
func nothingListening(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return "127.0.0.1:" + strconv.Itoa(port)
}
