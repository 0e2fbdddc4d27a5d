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

// Attempts sent at once are counted one by one: only the free ones and
// the first slowed one have a password checked, on both databases.
func TestSignInClaimsAtOnceAreCountedOneByOne(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		b := models.SignInBackoff{Free: 5, Max: time.Minute, Forget: time.Hour}
		now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		checked := 0
		var errs []error
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				wait, err := models.ClaimSignIn(ctx, db, "acct:ada@example.com", b, now)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				} else if wait == 0 {
					checked++
				}
			})
		}
		wg.Wait()
		require.Empty(t, errs)
		require.Equal(t, int(b.Free)+1, checked, "five free attempts and the first slowed one")

		wait, err := models.ClaimSignIn(ctx, db, "acct:ada@example.com", b, now.Add(time.Second))
		require.NoError(t, err)
		require.Zero(t, wait, "one second after the sixth")
		require.NoError(t, models.ForgetSignIn(ctx, db, "acct:ada@example.com"))
		wait, err = models.ClaimSignIn(ctx, db, "acct:ada@example.com", b, now.Add(time.Second))
		require.NoError(t, err)
		require.Zero(t, wait, "forgotten after a right password")

		for i := range 3 {
			wait, err := models.CountSignInAttempt(
				ctx,
				db,
				"addr:192.0.2.1",
				2,
				time.Minute,
				now.Add(time.Duration(i)*time.Second),
			)
			require.NoError(t, err)
			require.Equal(t, i == 2, wait > 0, "attempt %d", i+1)
			if i == 2 {
				require.Equal(t, 58*time.Second, wait, "until the window that began at the first attempt ends")
			}
		}
		wait, err = models.CountSignInAttempt(ctx, db, "addr:192.0.2.1", 2, time.Minute, now.Add(time.Minute))
		require.NoError(t, err)
		require.Zero(t, wait, "a new window")

		n, err := models.PruneSignInAttempts(ctx, db, now.Add(2*time.Hour))
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
	})
}
