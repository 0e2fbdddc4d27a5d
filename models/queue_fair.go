package models

import (
	"context"
	"fmt"
	"math"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// accountQueue is one account's queued jobs and its plan's fairness weight.
type accountQueue struct {
	Queued int64
	Weight float32
}

// queuedAccounts reads how many jobs each account with any queued has, and
// its plan's weight, in one read of the partial index of queued jobs.
func queuedAccounts(ctx context.Context, db *gorm.DB) (map[uint64]accountQueue, error) {
	var rows []struct {
		UserID uint64
		Plan   string
		N      int64
	}
	err := db.WithContext(ctx).Model(&Job{}).Select("jobs.user_id, users.plan, COUNT(*) AS n").
		Joins("JOIN users ON users.id = jobs.user_id").Where("jobs.lifecycle = ?", contract.LifecycleQueued).
		Group("jobs.user_id, users.plan").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("queued jobs by account: %w", err)
	}
	out := make(map[uint64]accountQueue, len(rows))
	for _, r := range rows {
		out[r.UserID] = accountQueue{Queued: r.N, Weight: PlanWeight(r.Plan)}
	}
	return out, nil
}

// fairAhead is how many queued jobs the task queues dispatch before the job
// at position among account user's queued jobs, under fairness: its
// account's position − 1 older ones, and of every other account k as many
// as k is dispatched while user's first position are, position × weight(k)
// / weight(user), at most k's queued jobs — whenever they were submitted.
func fairAhead(accounts map[uint64]accountQueue, user uint64, position int64) int64 {
	own := float64(PlanWeight(""))
	if a, ok := accounts[user]; ok {
		own = float64(a.Weight)
	}
	ahead := position - 1
	for id, a := range accounts {
		if id != user {
			ahead += min(a.Queued, int64(math.Floor(float64(position)*float64(a.Weight)/own)))
		}
	}
	return ahead
}
