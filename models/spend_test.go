package models_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// spendKey makes an API key of u and returns its id.
func spendKey(t *testing.T, db *gorm.DB, u *models.User) string {
	t.Helper()
	k, _, err := models.CreateKey(context.Background(), db, u.ID, nil, nil, contract.CurrentVersion)
	require.NoError(t, err)
	return k.ID
}

func setLimit(t *testing.T, db *gorm.DB, u *models.User, keyID, period string, credits int64) *models.SpendLimit {
	t.Helper()
	l, err := models.SetSpendLimit(context.Background(), db, models.SpendLimit{UserID: u.ID, APIKeyID: keyID,
		CreditType: contract.CreditService, Period: period, Credits: credits})
	require.NoError(t, err)
	return l
}

// thresholds lists the percentages recorded for a limit in its period.
func thresholds(t *testing.T, db *gorm.DB, l *models.SpendLimit) []int {
	t.Helper()
	var pcts []int
	require.NoError(t, db.Model(&models.SpendThreshold{}).Where("limit_id = ?", l.ID).Order("percent").
		Pluck("percent", &pcts).Error)
	return pcts
}

// TestSpendLimitsRefuseAHoldThatWouldPassThem: an account's and a key's
// day and month limits each refuse the hold that would take their period
// past them, naming the limit, with nothing held and no job written; what
// stays within them is admitted. Settled jobs count their charge, and a
// new period starts from nothing.
func TestSpendLimitsRefuseAHoldThatWouldPassThem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	type admit struct {
		key   bool  // started by the key (else by the app)
		hold  int64 // credits
		scope string
		// refusedBy is the period of the limit that refuses it; "" admits.
		refusedBy string
	}
	tests := []struct {
		name                     string
		accountDay, accountMonth int64 // 0: no limit
		keyDay, keyMonth         int64
		admits                   []admit
	}{
		{name: "account day limit", accountDay: 10, admits: []admit{{hold: 6}, {hold: 4}, {hold: 1,
			scope: contract.SpendAccount, refusedBy: contract.SpendDay}}},
		{name: "account month limit counts the key's jobs too", accountMonth: 8, admits: []admit{{key: true, hold: 5},
			{hold: 4, scope: contract.SpendAccount, refusedBy: contract.SpendMonth}, {hold: 3}}},
		{name: "key day limit leaves the app's jobs alone", keyDay: 5, admits: []admit{{key: true, hold: 5},
			{key: true, hold: 1, scope: contract.SpendKey, refusedBy: contract.SpendDay}, {hold: 7}}},
		{name: "key month limit under a larger account limit", accountDay: 100, keyMonth: 3,
			admits: []admit{{key: true, hold: 2}, {key: true, hold: 2, scope: contract.SpendKey,
				refusedBy: contract.SpendMonth}, {hold: 50}}},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u := accountFor(t, db)
				_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 1000, nil, "test")
				require.NoError(t, err)
				key := spendKey(t, db, u)
				for _, l := range []struct {
					key, period string
					credits     int64
				}{{"", contract.SpendDay, tt.accountDay}, {"", contract.SpendMonth, tt.accountMonth},
					{key, contract.SpendDay, tt.keyDay}, {key, contract.SpendMonth, tt.keyMonth}} {
					if l.credits > 0 {
						setLimit(t, db, u, l.key, l.period, l.credits)
					}
				}
				for i, a := range tt.admits {
					j := newJob(u, a.hold, 1)
					if a.key {
						j.APIKeyID = key
					}
					before := available(t, db, u, now)
					_, err := models.Admit(ctx, db, j, now, nil)
					if a.refusedBy == "" {
						require.NoError(t, err, "admit %d", i)
						continue
					}
					var refusal *models.AdmitRefusal
					require.True(t, errors.As(err, &refusal), "admit %d: %v", i, err)
					require.NotNil(t, refusal.Limit)
					require.Equal(t, a.scope, refusal.Limit.Scope)
					require.Equal(t, a.refusedBy, refusal.Limit.Period)
					require.Equal(t, a.hold, refusal.Limit.Required)
					require.Equal(t, contract.PeriodEnd(a.refusedBy, now), refusal.Limit.ResetsAt)
					require.Greater(t, refusal.Limit.Spent+a.hold, refusal.Limit.Limit)
					require.Equal(t, before, available(t, db, u, now), "nothing is held")
					_, err = models.JobByID(ctx, db, u.ID, j.ID)
					require.ErrorIs(t, err, models.ErrNotFound, "no job is written")
					_, err = models.Admit(ctx, db, j, now, nil)
					var again *models.AdmitRefusal
					require.True(t, errors.As(err, &again), "a retried admit answers the same refusal")
					require.Equal(t, refusal.Limit, again.Limit)
				}
			})
		}
		t.Run("a zero limit refuses any hold", func(t *testing.T) {
			u := accountFor(t, db)
			_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
			require.NoError(t, err)
			setLimit(t, db, u, "", contract.SpendMonth, 0)
			var refusal *models.AdmitRefusal
			_, err = models.Admit(ctx, db, newJob(u, 1, 1), now, nil)
			require.True(t, errors.As(err, &refusal))
			require.EqualValues(t, 0, refusal.Limit.Limit)
		})
		t.Run("settled jobs count their charge; the next day starts afresh", func(t *testing.T) {
			u := accountFor(t, db)
			_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 100, nil, "test")
			require.NoError(t, err)
			setLimit(t, db, u, "", contract.SpendDay, 10)
			j := newJob(u, 10, 5)
			_, err = models.Admit(ctx, db, j, now, nil)
			require.NoError(t, err)
			_, err = models.Admit(ctx, db, newJob(u, 5, 5), now, nil)
			require.Error(t, err, "the open hold counts in full")
			deliver(t, db, j, 1, now)
			_, _, err = models.Settle(ctx, db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
			require.NoError(t, err)
			_, err = models.Admit(ctx, db, newJob(u, 5, 5), now, nil)
			require.NoError(t, err, "the job was charged 5 of its hold of 10")
			_, err = models.Admit(ctx, db, newJob(u, 1, 1), now, nil)
			require.Error(t, err)
			_, err = models.Admit(ctx, db, newJob(u, 10, 1), now.Add(24*time.Hour), nil)
			require.NoError(t, err, "a new day")
			st, err := models.SpendLimits(ctx, db, u.ID, now.Add(24*time.Hour))
			require.NoError(t, err)
			require.Len(t, st, 1)
			require.EqualValues(t, 10, st[0].Spent)
			require.Equal(t, time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), st[0].ResetsAt)
		})
	})
}

// TestSpendThresholdsAreRecordedOncePerPeriod: each of 50, 80 and 100 % of
// a limit is recorded by the admit that reaches it, once in its period
// even when spend falls and rises again, and again in the next period;
// 100 % is also recorded by the first hold the limit refuses.
func TestSpendThresholdsAreRecordedOncePerPeriod(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 1000, nil, "test")
		require.NoError(t, err)
		key := spendKey(t, db, u)
		day := setLimit(t, db, u, "", contract.SpendDay, 10)
		month := setLimit(t, db, u, key, contract.SpendMonth, 100)
		admit := func(hold int64, at time.Time) *models.Job {
			j := newJob(u, hold, 1)
			j.APIKeyID = key
			_, err := models.Admit(ctx, db, j, at, nil)
			require.NoError(t, err)
			return j
		}
		first := admit(4, now)
		require.Empty(t, thresholds(t, db, day), "40 %")
		second := admit(4, now)
		require.Equal(t, []int{50, 80}, thresholds(t, db, day), "80 % reached at once")
		crossed, err := models.ThresholdsOfJob(ctx, db, second.ID)
		require.NoError(t, err)
		require.Len(t, crossed, 2)
		require.Equal(t, contract.SpendAccount, crossed[0].Scope())
		require.EqualValues(t, 8, crossed[1].Spent)
		_, _, err = models.Settle(ctx, db, first.ID, models.Settlement{Outcome: contract.OutcomeFailed}, now)
		require.NoError(t, err)
		admit(2, now) // spend 6 again: 50 % reached a second time
		admit(4, now) // 10: 100 %
		require.Equal(t, []int{50, 80, 100}, thresholds(t, db, day), "each once")
		require.Empty(t, thresholds(t, db, month), "14 of 100")
		refuse := func(hold int64, at time.Time) *models.Job {
			j := newJob(u, hold, 1)
			j.APIKeyID = key
			_, err := models.Admit(ctx, db, j, at, nil)
			var refusal *models.AdmitRefusal
			require.ErrorAs(t, err, &refusal)
			require.NotNil(t, refusal.Limit)
			return j
		}
		over := refuse(1, now)
		crossed, err = models.ThresholdsOfJob(ctx, db, over.ID)
		require.NoError(t, err)
		require.Empty(t, crossed, "100 % was reached already in the period")
		admit(10, now.Add(24*time.Hour))
		var n int64
		require.NoError(t, db.Model(&models.SpendThreshold{}).Where("limit_id = ?", day.ID).Count(&n).Error)
		require.EqualValues(t, 6, n, "the next day records its own thresholds")

		// A limit that refuses a hold has been reached, though no hold
		// landed on it: its 100 % is recorded by the first refusal of the
		// period, then 80 % when spend gets there.
		third := now.Add(48 * time.Hour)
		admit(6, third)
		refused := refuse(5, third)
		crossed, err = models.ThresholdsOfJob(ctx, db, refused.ID)
		require.NoError(t, err)
		require.Len(t, crossed, 1)
		require.Equal(t, 100, crossed[0].Percent)
		require.Equal(t, day.ID, crossed[0].LimitID)
		require.EqualValues(t, 6, crossed[0].Spent, "what the period had spent when it refused")
		_, err = models.Admit(ctx, db, refused, third, nil)
		require.Error(t, err, "a retried admit answers the same refusal")
		again, err := models.ThresholdsOfJob(ctx, db, refused.ID)
		require.NoError(t, err)
		require.Equal(t, crossed, again, "and records nothing new")
		refuse(9, third)
		admit(2, third)
		var pcts []int
		require.NoError(t, db.Model(&models.SpendThreshold{}).Where("limit_id = ? AND period_start = ?", day.ID,
			contract.PeriodStart(contract.SpendDay, third)).Order("created_at, percent").Pluck("percent", &pcts).Error)
		require.ElementsMatch(t, []int{50, 100, 80}, pcts, "each once")
		require.Empty(t, thresholds(t, db, month), "the month's limit refused nothing")

		// A limit of zero refuses every hold: reached at once.
		zero := setLimit(t, db, u, key, contract.SpendDay, 0)
		refuse(1, third)
		refuse(1, third)
		require.Equal(t, []int{100}, thresholds(t, db, zero))
	})
}

// TestSpendLimitsHoldUnderAConcurrentBurst: 40 admits at once from two
// keys under an account limit and a key limit never hold more than either
// limit allows; exactly as many as fit are admitted.
func TestSpendLimitsHoldUnderAConcurrentBurst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	db := testenv.DB(t, testenv.Postgres)
	u := accountFor(t, db)
	_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10000, nil, "test")
	require.NoError(t, err)
	keys := []string{spendKey(t, db, u), spendKey(t, db, u)}
	const accountLimit, keyLimit, hold = 50, 21, 3
	setLimit(t, db, u, "", contract.SpendDay, accountLimit)
	setLimit(t, db, u, keys[0], contract.SpendMonth, keyLimit)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		admitted = map[string]int64{}
		refused  int
	)
	for i := range 40 {
		wg.Go(func() {
			j := newJob(u, hold, 1)
			j.APIKeyID = keys[i%2]
			_, err := models.Admit(ctx, db, j, now, nil)
			mu.Lock()
			defer mu.Unlock()
			var refusal *models.AdmitRefusal
			switch {
			case err == nil:
				admitted[j.APIKeyID] += hold
			case errors.As(err, &refusal) && refusal.Limit != nil:
				refused++
			default:
				t.Errorf("admit: %v", err)
			}
		})
	}
	wg.Wait()
	var held int64
	require.NoError(t, db.Model(&models.Job{}).Where("user_id = ?", u.ID).
		Select("COALESCE(SUM(held_credits + charged_credits), 0)").Scan(&held).Error)
	require.LessOrEqual(t, held, int64(accountLimit), "held and charged never pass the account limit")
	require.LessOrEqual(t, admitted[keys[0]], int64(keyLimit), "nor the key's")
	require.EqualValues(t, accountLimit/hold*hold, held, "as many as fit are admitted")
	require.Equal(t, 40-int(held/hold), refused)
	require.Equal(t, int64(10000)-held, available(t, db, u, now), "the refused held nothing")
	// The account's 48 of 50 is 96 %; the holds it refused reached 100 %.
	want := []int{50, 80, 100}
	for _, pct := range contract.SpendThresholds {
		if admitted[keys[0]]*100 >= int64(pct)*keyLimit {
			want = append(want, pct)
		}
	}
	var pcts []int
	require.NoError(t, db.Model(&models.SpendThreshold{}).Where("user_id = ?", u.ID).
		Order("limit_id, percent").Pluck("percent", &pcts).Error)
	require.Equal(t, want, pcts, "each threshold reached once")
}

// TestARolledKeyKeepsItsSpendLimits: the key a roll makes is held to the
// limits of the key it replaces, which keeps them through its grace.
func TestARolledKeyKeepsItsSpendLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		key := spendKey(t, db, u)
		setLimit(t, db, u, key, contract.SpendMonth, 30)
		setLimit(t, db, u, "", contract.SpendDay, 100)
		next, _, err := models.RollKey(ctx, db, key, time.Hour, now, contract.CurrentVersion)
		require.NoError(t, err)
		limits, err := models.SpendLimits(ctx, db, u.ID, now)
		require.NoError(t, err)
		byKey := map[string]int64{}
		for _, l := range limits {
			byKey[l.APIKeyID+"/"+l.Period] = l.Credits
		}
		require.Equal(t, map[string]int64{"/day": 100, key + "/month": 30, next.ID + "/month": 30}, byKey)
	})
}
