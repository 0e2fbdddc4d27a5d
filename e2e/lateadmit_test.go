package e2e_test

import (
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// outageTemporal is a Temporal dev server of one test, persisted in a
// file, which the test takes away and brings back on the same address.
type outageTemporal struct {
	t                *testing.T
	hostPort, dbFile string
	srv              *testsuite.DevServer
}

func startOutageTemporal(t *testing.T) *outageTemporal {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	o := &outageTemporal{t: t, hostPort: ln.Addr().String(), dbFile: filepath.Join(t.TempDir(), "temporal.db")}
	require.NoError(t, ln.Close())
	o.start()
	t.Cleanup(func() {
		if o.srv != nil {
			o.stop()
		}
	})
	return o
}

// start brings the server up, with every workflow it had.
func (o *outageTemporal) start() {
	srv, err := testenv.StartTemporalAt(o.hostPort, o.dbFile)
	require.NoError(o.t, err, "Temporal dev server")
	o.srv = srv
}

// stop takes the server away: its address refuses connections.
func (o *outageTemporal) stop() {
	_ = o.srv.Stop() // the server exits on its interrupt
	o.srv = nil
}

// dial is a client of the server that outlives its outages.
func (o *outageTemporal) dial() client.Client {
	c, err := client.Dial(client.Options{HostPort: o.hostPort, Namespace: "default",
		Logger: worker.NewLogger(zap.NewNop())})
	require.NoError(o.t, err)
	o.t.Cleanup(c.Close)
	return c
}

// submitLate submits a job while Temporal is away: its handle is answered
// late (202, queued, nothing held) with the given webhook_url.
func submitLate(t *testing.T, s *testStack, hook, key string) string {
	t.Helper()
	res := s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(hook), pattern(1),
		"Idempotency-Key", key)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	require.Empty(t, res.header.Get("X-Service-Credits"), "nothing is held yet")
	job := res.json(t)
	require.Equal(t, "queued", job["lifecycle"])
	return job["job_id"].(string)
}

func TestEveryLateHandleEndsAfterATemporalOutage(t *testing.T) {
	t.Parallel()
	tp := startOutageTemporal(t)
	rcv := newReceiver(t)
	api := tp.dial()
	s := newStack(t, stackOptions{credits: 100, client: tp.dial(), admitTimeout: time.Second, rootCAs: rcv.pool(),
		temporal:   func(client.Client) client.Client { return api },
		lateAdmits: activities.LateAdmitOptions{Wait: time.Second}})
	_, per := priceOf(t, pattern(1))
	warm := s.submit(pattern(1))
	require.Equal(t, http.StatusAccepted, warm.status, "%s", warm.body)
	require.Equal(t, "succeeded", s.waitTerminal(warm.json(t)["job_id"].(string))["outcome"])

	tp.stop()
	var ids []string
	for i := range 4 {
		ids = append(ids, submitLate(t, s, rcv.srv.URL+"/hook", "outage-"+strconv.Itoa(i)))
	}
	// The API process dies right after its late 202s: nothing it ran can
	// send their admits again.
	api.Close()
	// A late job can be cancelled while Temporal is away.
	cancel := s.do(http.MethodPut, "/v1/jobs/"+ids[3]+"/cancel", nil)
	require.Equal(t, http.StatusAccepted, cancel.status, "%s", cancel.body)
	require.Equal(t, "terminal", cancel.json(t)["lifecycle"])
	require.Equal(t, "cancelled", cancel.json(t)["outcome"])

	tp.start()
	for _, id := range ids[:3] {
		require.Equal(t, "succeeded", s.waitTerminal(id)["outcome"],
			"the admit reaches a workflow once Temporal is back")
	}
	job := s.waitTerminal(ids[3])
	require.Equal(t, "cancelled", job["outcome"])
	require.Equal(t, "cancelled", job["error"].(map[string]any)["code"])
	require.Equal(t, 100-4*per, s.balance(), "each job that ran charged once, the cancelled one nothing")
	require.Equal(t, s.balance(), s.ledgerSum(), "no hold left behind")

	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 4 }, patience, 100*time.Millisecond)
	events := rcv.events()
	slices.Sort(events)
	require.Equal(t, []string{"job.cancelled", "job.succeeded", "job.succeeded", "job.succeeded"}, events)

	hook := "/v1/tasks/pattern.generate?webhook_url=" + url.QueryEscape(rcv.srv.URL+"/hook")
	again := s.do(http.MethodPost, hook, pattern(1), "Idempotency-Key", "outage-0")
	require.Equal(t, ids[0], again.json(t)["job_id"], "the key still names its job")
	require.Equal(t, 100-4*per, s.balance())
}

func TestALateJobFailsAtItsDeadlineWhileTemporalIsAway(t *testing.T) {
	t.Parallel()
	tp := startOutageTemporal(t)
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, client: tp.dial(), admitTimeout: time.Second, rootCAs: rcv.pool(),
		lateAdmits: activities.LateAdmitOptions{Deadline: 4 * time.Second, Wait: time.Second}})
	require.Equal(t, "succeeded", s.waitTerminal(s.submit(pattern(1)).json(t)["job_id"].(string))["outcome"])
	_, per := priceOf(t, pattern(1))

	tp.stop()
	id := submitLate(t, s, rcv.srv.URL+"/hook", "deadline")
	job := s.waitTerminal(id)
	require.Equal(t, "failed", job["outcome"], "the deadline ends the job with Temporal still away")
	e := job["error"].(map[string]any)
	require.Equal(t, "internal", e["code"])
	require.Equal(t, true, e["retryable"])
	require.Equal(t, id, e["job_id"])
	require.Equal(t, 100-per, s.balance(), "nothing held or charged")
	require.Equal(t, s.balance(), s.ledgerSum())

	tp.start()
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 100*time.Millisecond,
		"job.failed is delivered once Temporal is back")
	d := rcv.deliveries()[0]
	require.Equal(t, "job.failed", d.event["event"])
	require.Equal(t, "internal", d.event["error"].(map[string]any)["code"])
	hook := "/v1/tasks/pattern.generate?webhook_url=" + url.QueryEscape(rcv.srv.URL+"/hook")
	res := s.do(http.MethodPost, hook, pattern(1), "Idempotency-Key", "deadline")
	require.Equal(t, id, res.json(t)["job_id"], "the key still names its job")
	require.Equal(t, "failed", s.waitTerminal(id)["outcome"])
}
