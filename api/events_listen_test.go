package api

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/wire"
)

// TestListenStreamSignsTheAccountsEvents opens GET /v1/events and drives
// jobs as the activities do: a job of the account that runs and succeeds
// arrives as signed deliveries (job.started, job.progress, job.succeeded)
// that verify against the published keys; a job that ended before the
// stream opened and another account's job never arrive.
func TestListenStreamSignsTheAccountsEvents(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			_, priv, err := ed25519.GenerateKey(nil)
			require.NoError(t, err)
			sg := signer.New(priv)
			e := newEnv(t, b, func(d *Deps) { d.Signer = sg })
			srv := httptest.NewServer(e.r)
			t.Cleanup(srv.Close)
			ctx, now := context.Background(), time.Now().UTC()
			other, _, _ := e.account(models.PlanStandard)
			newJob := func(userID uint64, created time.Time) *models.Job {
				j := &models.Job{ID: models.NewID("j_"), UserID: userID, Task: "pattern.generate", Input: "{}",
					Lifecycle: contract.LifecycleQueued, CreditType: contract.CreditService,
					ServiceVersion: CurrentVersion, CreatedAt: created}
				require.NoError(t, e.db.Create(j).Error)
				return j
			}
			old := newJob(e.user.ID, now.Add(-time.Hour))
			_, _, err = models.Settle(ctx, e.db, old.ID, models.Settlement{Outcome: contract.OutcomeSucceeded},
				now.Add(-time.Minute))
			require.NoError(t, err)

			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/v1/events", nil)
			require.NoError(t, err)
			req.Header.Set("Authorization", "Key "+e.key)
			res, err := srv.Client().Do(req)
			require.NoError(t, err)
			t.Cleanup(func() { _ = res.Body.Close() })
			require.Equal(t, http.StatusOK, res.StatusCode)
			require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
			events := make(chan sse, 64)
			go readSSE(bufio.NewScanner(res.Body), events)
			require.Equal(t, "events of the account, from now on", next(t, events, true).comment)

			// The old job changes again; the other account's job runs.
			require.NoError(t, jobstream.Notify(ctx, e.db, old.ID))
			theirs := newJob(other.ID, now)
			require.NoError(t, models.MarkRunning(ctx, e.db, theirs.ID, 1, "rendering", now))
			require.NoError(t, jobstream.Notify(ctx, e.db, theirs.ID))

			j := newJob(e.user.ID, time.Now().UTC()) // after the open: every event of it
			require.NoError(t, models.MarkRunning(ctx, e.db, j.ID, 1, "rendering", now))
			require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))
			f := &models.File{ID: models.NewID(""), UserID: e.user.ID, JobID: j.ID, Task: j.Task,
				MediaType: "image/png", BlobKey: "k0"}
			_, err = models.AddOutput(ctx, e.db, f, now.Add(time.Second))
			require.NoError(t, err)
			require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))
			_, _, err = models.Settle(ctx, e.db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded},
				now.Add(2*time.Second))
			require.NoError(t, err)
			require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))

			ids := map[string]bool{}
			for _, kind := range []string{contract.EventStarted, contract.EventProgress, contract.EventSucceeded} {
				ev := next(t, events, false)
				require.Equal(t, kind, ev.event)
				var frame listenFrame
				require.NoError(t, json.Unmarshal([]byte(ev.data), &frame), ev.data)
				h := frame.Headers
				require.Equal(t, ev.id, h["X-Service-Request-Id"])
				require.True(t, strings.HasPrefix(ev.id, ListenDeliveryPrefix), ev.id)
				require.False(t, ids[ev.id], "each delivery has its own id")
				ids[ev.id] = true
				require.Equal(t, strconv.FormatUint(e.user.ID, 10), h["X-Service-User-Id"])
				ts, err := strconv.ParseInt(h["X-Service-Timestamp"], 10, 64)
				require.NoError(t, err)
				require.NoError(t, signer.Verify(sg.JWKS(), ev.id, h["X-Service-User-Id"], h["X-Service-Timestamp"],
					h["X-Service-Signature"], []byte(frame.Body), time.Unix(ts, 0), time.Minute),
					"the delivery verifies as a webhook's")
				var body wire.Event
				require.NoError(t, json.Unmarshal([]byte(frame.Body), &body))
				require.Equal(t, j.ID, body.JobID, "only the account's job, and only what happened after the open")
				require.Equal(t, kind, body.Event)
				require.Equal(t, jobstream.EventID(j.ID, kind, 0), body.ID, "the event id a webhook gives it")
			}
		})
	}
}
