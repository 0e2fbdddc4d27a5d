package models_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

const (
	claimOp    = "POST /v1/tasks"
	claimLease = 30 * time.Second
)

func TestClaimKeyStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	// step is one call, in order, on one idempotency key of one test.
	type step struct {
		do      string // claim, complete, release
		hash    string
		at      time.Duration // after now
		ttl     time.Duration // of complete
		want    models.ClaimState
		wantJob string // "first" (the first claim's job) or "new" (this call's)
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"new", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
		}},
		{"in progress within the lease", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "claim", hash: "h1", at: claimLease - time.Second, want: models.ClaimInProgress, wantJob: "first"},
		}},
		{"done after complete", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "complete", at: time.Second},
			{do: "claim", hash: "h1", at: 2 * time.Second, want: models.ClaimDone, wantJob: "first"},
			{do: "claim", hash: "h1", at: time.Hour, want: models.ClaimDone, wantJob: "first"},
		}},
		{"mismatch in progress", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "claim", hash: "h2", at: time.Second, want: models.ClaimMismatch, wantJob: "first"},
		}},
		{"mismatch when done", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "complete"},
			{do: "claim", hash: "h2", at: time.Second, want: models.ClaimMismatch, wantJob: "first"},
		}},
		{"takeover after the lease, then in progress again", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "claim", hash: "h1", at: claimLease, want: models.ClaimTakeover, wantJob: "first"},
			{do: "claim", hash: "h1", at: claimLease + time.Second, want: models.ClaimInProgress, wantJob: "first"},
			{do: "claim", hash: "h1", at: 2*claimLease + time.Second, want: models.ClaimTakeover, wantJob: "first"},
		}},
		{"mismatch after the lease is not a takeover", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "claim", hash: "h2", at: 2 * claimLease, want: models.ClaimMismatch, wantJob: "first"},
		}},
		{"released key is new again", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "release"},
			{do: "claim", hash: "h2", at: time.Second, want: models.ClaimNew, wantJob: "new"},
		}},
		{"completed key expires after its ttl", []step{
			{do: "claim", hash: "h1", want: models.ClaimNew, wantJob: "new"},
			{do: "complete", ttl: time.Hour},
			{do: "claim", hash: "h1", at: time.Hour - time.Second, want: models.ClaimDone, wantJob: "first"},
			{do: "claim", hash: "h2", at: time.Hour, want: models.ClaimNew, wantJob: "new"},
		}},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u := accountFor(t, db)
				key := models.NewID("idem_")
				var first string
				for i, s := range tt.steps {
					at := now.Add(s.at)
					switch s.do {
					case "complete":
						require.NoError(t, models.CompleteKey(ctx, db, u.ID, claimOp, key, s.ttl, at), "step %d", i)
					case "release":
						require.NoError(t, models.ReleaseKey(ctx, db, u.ID, claimOp, key), "step %d", i)
					case "claim":
						job := models.NewID("j_")
						c, err := models.ClaimKey(ctx, db, u.ID, claimOp, key, s.hash, job, claimLease, at)
						require.NoError(t, err, "step %d", i)
						require.Equal(t, s.want, c.State, "step %d", i)
						switch s.wantJob {
						case "new":
							require.Equal(t, job, c.JobID, "step %d", i)
							first = job
						case "first":
							require.Equal(t, first, c.JobID, "step %d", i)
						}
					}
				}
			})
		}
	})
}

func TestClaimKeyScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		a, b := accountFor(t, db), accountFor(t, db)
		c, err := models.ClaimKey(ctx, db, a.ID, claimOp, "k1", "h", "j_a", claimLease, now)
		require.NoError(t, err)
		require.Equal(t, models.ClaimNew, c.State)

		tests := []struct {
			name   string
			userID uint64
			op     string
		}{
			{"another user", b.ID, claimOp},
			{"another operation", a.ID, "POST /v1/uploads"},
		}
		for _, tt := range tests {
			c, err := models.ClaimKey(ctx, db, tt.userID, tt.op, "k1", "h", "j_other", claimLease, now)
			require.NoError(t, err, tt.name)
			require.Equal(t, models.ClaimNew, c.State, tt.name)
			require.Equal(t, "j_other", c.JobID, tt.name)
		}
	})
}

func TestCompleteKeyUnknown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		err := models.CompleteKey(ctx, db, 1, claimOp, "never-claimed", 0, time.Now().UTC())
		require.ErrorContains(t, err, "vanished")
	})
}

func TestClaimKeyConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	const n = 8
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		var wg sync.WaitGroup
		claims := make([]models.Claim, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				claims[i], errs[i] = models.ClaimKey(
					ctx,
					db,
					u.ID,
					claimOp,
					"race",
					"h",
					models.NewID("j_"),
					claimLease,
					now,
				)
			}()
		}
		wg.Wait()
		var fresh int
		for i := range n {
			require.NoError(t, errs[i])
			require.Equal(t, claims[0].JobID, claims[i].JobID, "every claim reaches the same job")
			if claims[i].State == models.ClaimNew {
				fresh++
			} else {
				require.Equal(t, models.ClaimInProgress, claims[i].State)
			}
		}
		require.Equal(t, 1, fresh, "exactly one request runs")
	})
}
