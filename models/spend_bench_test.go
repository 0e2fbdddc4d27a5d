package models_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// BenchmarkAdmitUnderSpendLimits is the cost of an admit on PostgreSQL for
// an account without limits, and for one with a day, a month and a key's
// limit whose month already holds n settled jobs: the check sums the
// period's jobs under the account's lock.
func BenchmarkAdmitUnderSpendLimits(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct {
		limits bool
		jobs   int
	}{{false, 0}, {true, 0}, {true, 1000}, {true, 20000}} {
		b.Run(fmt.Sprintf("limits=%v/month_jobs=%d", tc.limits, tc.jobs), func(b *testing.B) {
			db := testenv.DB(b, testenv.Postgres)
			now := time.Now().UTC()
			u, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.com", models.PlanStandard)
			require.NoError(b, err)
			_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 1<<40, nil, "bench")
			require.NoError(b, err)
			k, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, contract.CurrentVersion)
			require.NoError(b, err)
			if tc.limits {
				for _, l := range []models.SpendLimit{{Period: contract.SpendDay}, {Period: contract.SpendMonth},
					{APIKeyID: k.ID, Period: contract.SpendMonth}} {
					l.UserID, l.CreditType, l.Credits = u.ID, contract.CreditService, 1<<40
					_, err := models.SetSpendLimit(ctx, db, l)
					require.NoError(b, err)
				}
			}
			start := contract.PeriodStart(contract.SpendMonth, now)
			rows := make([]models.Job, tc.jobs)
			for i := range rows {
				at := start.Add(time.Duration(i) * now.Sub(start) / time.Duration(tc.jobs+1))
				rows[i] = models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: k.ID, Task: "pattern.generate",
					Input: "{}", Lifecycle: contract.LifecycleTerminal, CreditType: contract.CreditService,
					HeldCredits: 4, ChargedCredits: 4, PricePerOutput: 2, SettledAt: &at, CreatedAt: at}
			}
			if len(rows) > 0 {
				require.NoError(b, db.CreateInBatches(rows, 1000).Error)
			}
			b.ResetTimer()
			for b.Loop() {
				j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: k.ID, Task: "pattern.generate",
					Input: "{}", CreditType: contract.CreditService, HeldCredits: 4, PricePerOutput: 2}
				if _, err := models.Admit(ctx, db, j, now, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
