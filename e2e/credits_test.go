package e2e_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestCreditsExpiringMidJobAreChargedFromTheHold runs a job whose hold took
// a promotion's credits, ends the promotion while the job runs, and cancels
// the job after an output: the delivered outputs are charged from the
// promotion, what was not spent lapses with it, and the account's other
// credits are untouched. Before, settlement spent only batches live at its
// time, so the charge moved onto the non-expiring credits.
func TestCreditsExpiringMidJobAreChargedFromTheHold(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := newStack(t, stackOptions{backend: b, credits: 20, stepDelay: 700 * time.Millisecond})
			input := pattern(6)
			hold, per := priceOf(t, input)
			until := time.Now().Add(time.Hour)
			promo, err := models.Grant(ctx, s.db, s.userID, contract.CreditService, hold, &until, "promotion")
			require.NoError(t, err)

			id := s.submit(input).json(t)["job_id"].(string)
			require.Eventually(t, func() bool {
				return s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)["progress"].(map[string]any)["done"].(float64) >= 1
			}, patience, 50*time.Millisecond)
			require.Equal(t, int64(20), s.balance(), "the hold took the promotion's credits, which expire first")

			// The promotion ends while the job runs.
			require.NoError(t, s.db.Model(&models.CreditBatch{}).Where("id = ?", promo.ID).
				Update("expires_at", time.Now().Add(-time.Second)).Error)
			require.Equal(t, http.StatusAccepted, s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil).status)
			job := s.waitTerminal(id)
			done := int64(job["progress"].(map[string]any)["done"].(float64))
			require.GreaterOrEqual(t, done, int64(1))

			var left models.CreditBatch
			require.NoError(t, s.db.Take(&left, promo.ID).Error)
			require.Equal(
				t,
				hold-done*per,
				left.Remaining,
				"charged from the promotion; the rest went back to it and lapsed",
			)
			require.Equal(t, int64(20), s.balance(), "the non-expiring credits are untouched")
			var charged int64
			require.NoError(
				t,
				s.db.Model(&models.LedgerEntry{}).
					Where("job_id = ? AND kind = ? AND batch_id = ?", id, models.LedgerCharge, promo.ID).
					Select("COALESCE(SUM(amount), 0)").
					Scan(&charged).
					Error,
			)
			require.Equal(t, -done*per, charged, "the ledger names the promotion")
			require.Equal(
				t,
				s.balance()+left.Remaining,
				s.ledgerSum(),
				"the ledger explains the balance and what lapsed",
			)
		})
	}
}
