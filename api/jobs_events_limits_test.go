package api

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// streamProcesses are API processes serving one database: on PostgreSQL
// two, each with its own connection pool (the API scaled out); on SQLite
// one (dev runs one process).
type streamProcesses struct {
	db   *gorm.DB
	srvs []*httptest.Server
	user *models.User
	job  string
}

func newStreamProcesses(t *testing.T, b testenv.Backend) *streamProcesses {
	t.Helper()
	var dbs []*gorm.DB
	if b == testenv.Postgres {
		url := testenv.PostgresSchemaURL(t)
		for range 2 {
			db, err := models.Open(context.Background(), models.OpenConfig{URL: url})
			require.NoError(t, err)
			t.Cleanup(func() { _ = models.Close(db) })
			dbs = append(dbs, db)
		}
		require.NoError(t, models.Migrate(context.Background(), dbs[0]))
	} else {
		dbs = append(dbs, testenv.DB(t, b))
	}
	p := &streamProcesses{db: dbs[0]}
	for _, db := range dbs {
		srv := httptest.NewServer(
			NewRouter(Deps{DB: db, BaseURL: "https://api.example.test", Log: zaptest.NewLogger(t)}),
		)
		t.Cleanup(srv.Close)
		p.srvs = append(p.srvs, srv)
	}
	ctx := context.Background()
	u, err := models.CreateUser(ctx, p.db, models.NewID("")+"@example.com", models.PlanStandard)
	require.NoError(t, err)
	p.user = u
	p.job = models.NewID("j_")
	require.NoError(
		t,
		p.db.Create(
			&models.Job{
				ID:             p.job,
				UserID:         u.ID,
				Task:           "pattern.generate",
				Input:          "{}",
				Lifecycle:      contract.LifecycleQueued,
				CreditType:     contract.CreditService,
				ServiceVersion: CurrentVersion,
				CreatedAt:      time.Now().UTC(),
			},
		).Error,
	)
	return p
}

// key makes a key of the account with every scope.
func (p *streamProcesses) key(t *testing.T, expiresAt *time.Time) (secret, id string) {
	t.Helper()
	k, secret, err := models.CreateKey(context.Background(), p.db, p.user.ID, nil, expiresAt, CurrentVersion)
	require.NoError(t, err)
	return secret, k.ID
}

// srv is process i of the processes, round robin.
func (p *streamProcesses) srv(i int) *httptest.Server { return p.srvs[i%len(p.srvs)] }

// open opens the job's stream with key on process i and waits for its first
// comment: the stream is open and holds its lease.
func (p *streamProcesses) open(t *testing.T, i int, key string) chan sse {
	t.Helper()
	res, events := openStream(t, p.srv(i), key, p.job)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "events of "+p.job, next(t, events, true).comment)
	require.Equal(t, contract.EventQueue, next(t, events, false).event, "the queued job says where it stands")
	return events
}

// refused opens one stream too many on process i and checks the 429.
func (p *streamProcesses) refused(t *testing.T, i int, key, who string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.srv(i).URL+"/v1/jobs/"+p.job+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+key)
	res, err := p.srv(i).Client().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "one stream too many is refused")
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := answer{code: res.StatusCode, head: res.Header, body: body}
	e := a.errObj(t)
	require.Equal(t, "too_many_streams", e["code"])
	require.Equal(t, "rate_limited", e["type"])
	require.Equal(t, true, e["retryable"])
	require.Contains(t, e["message"], who)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	openapicheck.CheckAnswer(
		t,
		servedDoc(t, "/v1/openapi.json", true),
		http.MethodGet,
		"/v1/jobs/{job_id}/events",
		req,
		nil,
		res.StatusCode,
		res.Header,
		body,
	)
}

// TestEventStreamsAreBoundedPerKeyAndAccount opens streams up to each limit
// of limits.event_streams, across API processes on PostgreSQL: one more
// answers 429 too_many_streams, and a stream that ends frees its slot.
// Before, one key opened 290 streams.
func TestEventStreamsAreBoundedPerKeyAndAccount(t *testing.T) {
	lim := contract.DefaultLimits().EventStreams
	require.Less(t, lim.MaxPerKey, lim.MaxPerAccount)
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			p := newStreamProcesses(t, b)
			first, _ := p.key(t, nil)
			var firstStreams []context.CancelFunc
			for i := range lim.MaxPerKey {
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				res, events := openStreamCtx(t, ctx, p.srv(i), first, p.job)
				require.Equal(t, http.StatusOK, res.StatusCode, "stream %d", i)
				require.Equal(t, "events of "+p.job, next(t, events, true).comment)
				firstStreams = append(firstStreams, cancel)
			}
			p.refused(t, 0, first, "This key has")
			p.refused(t, 1, first, "This key has")

			// A stream that ends frees its slot.
			firstStreams[0]()
			require.Eventually(t, func() bool {
				res, _ := openStream(t, p.srv(1), first, p.job)
				return res.StatusCode == http.StatusOK
			}, 10*time.Second, 50*time.Millisecond, "the slot of a closed stream is free again")

			// The account's other keys share the account's limit.
			opened := lim.MaxPerKey
			for opened < lim.MaxPerAccount {
				key, _ := p.key(t, nil)
				for n := 0; n < lim.MaxPerKey && opened < lim.MaxPerAccount; n++ {
					p.open(t, opened, key)
					opened++
				}
			}
			other, _ := p.key(t, nil)
			p.refused(t, 0, other, "The account has")
		})
	}
}

// openStreamCtx is openStream under ctx: cancelling it closes the stream.
func openStreamCtx(
	t *testing.T,
	ctx context.Context,
	srv *httptest.Server,
	key, jobID string,
) (*http.Response, chan sse) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/v1/jobs/"+jobID+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+key)
	res, err := srv.Client().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	out := make(chan sse, 64)
	go readSSE(bufio.NewScanner(res.Body), out)
	return res, out
}

// endedByKey waits for a stream to say its key stopped working and end.
func endedByKey(t *testing.T, events <-chan sse) {
	t.Helper()
	late := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			require.True(t, ok, "the stream says why it ends")
			if ev.comment == "heartbeat" {
				continue
			}
			require.Equal(t, jobstream.KeyEnded, ev.comment)
			requireEnded(t, events)
			return
		case <-late:
			t.Fatal("the stream of a revoked key is still open")
		}
	}
}

// TestRevokingAKeyEndsItsStreams: a key revoked in the panel (on another
// API process, on PostgreSQL) or by the admin command ends the key's open
// streams at once; a key rolled with a grace period ends them when the
// grace ends. Before, they kept sending for up to an hour.
func TestRevokingAKeyEndsItsStreams(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			p := newStreamProcesses(t, b)
			token, _, err := models.StartSession(context.Background(), p.db, p.user.ID, "", "192.0.2.1", time.Now())
			require.NoError(t, err)
			panel := func(method, path, body string) {
				t.Helper()
				req, err := http.NewRequest(method, p.srv(0).URL+path, strings.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Cookie", middleware.SessionCookie+"="+token)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				res, err := p.srv(0).Client().Do(req)
				require.NoError(t, err)
				_ = res.Body.Close()
				require.Less(t, res.StatusCode, 300, "%s %s", method, path)
			}

			// Revoked in the panel: the stream (on the other process) ends.
			key, id := p.key(t, nil)
			events := p.open(t, 1, key)
			panel(http.MethodDelete, "/v1/account/keys/"+id, "")
			endedByKey(t, events)

			// Rolled with a grace period: the stream goes on, then ends with
			// the grace.
			key, id = p.key(t, nil)
			events = p.open(t, 1, key)
			panel(http.MethodPost, "/v1/account/keys/"+id+"/roll", `{"grace_period_seconds":2}`)
			ctx := context.Background()
			require.NoError(t, models.MarkRunning(ctx, p.db, p.job, 2, "rendering", time.Now().UTC()))
			require.NoError(t, jobstream.Notify(ctx, p.db, p.job))
			require.Equal(t, "job.started", next(t, events, false).event, "the stream goes on during the grace")
			endedByKey(t, events)
		})
	}
}

// TestRevokingAKeyFromAnotherProcessEndsItsStreams revokes as the admin
// command does, from outside the API process (no in-process signal): on
// PostgreSQL the keys table notifies every API process, so the stream ends
// long before its next heartbeat; on SQLite (one process: dev) it ends at
// its next lease renewal, one heartbeat later.
func TestRevokingAKeyFromAnotherProcessEndsItsStreams(t *testing.T) {
	saved := StreamHeartbeat
	t.Cleanup(func() { StreamHeartbeat = saved })
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			StreamHeartbeat = time.Minute
			if b == testenv.SQLite {
				StreamHeartbeat = 300 * time.Millisecond
			}
			p := newStreamProcesses(t, b)
			key, id := p.key(t, nil)
			events := p.open(t, 0, key)
			require.NoError(t, models.RevokeKey(context.Background(), p.db, id, time.Now().UTC()))
			endedByKey(t, events)
		})
	}
}
