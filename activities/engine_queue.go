package activities

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// engineQueue is implemented by the Runner of a task whose jobs run on an
// external engine (engines.Runner, and the routes built on it).
type engineQueue interface {
	EngineName() string
	EngineSlots() int
	EngineQueueLimit() int
}

// engineBusy answers the failure of a job that may not wait for its
// engine, nil when it may: its plan names an engine with a queue limit
// (engines' queue_limit) and that many jobs already wait for the engine's
// capacity. A job waits while it is queued (admitted, none of its steps
// started): the engine's queued jobs, less its slots no prediction holds
// (a job just admitted on a free slot is about to start, not waiting).
// Counted at admit, so the job fails at once, uncharged, instead of
// waiting up to the queue's wait for nothing.
//
// The limit is shared fairly, as the queue dispatches (by account): a
// full queue refuses a job only when its own account already has its
// share of the limit waiting, limit ÷ the accounts waiting (this one
// counted), at least 1. So one account's flood fills the queue for
// itself, never for an account with nothing waiting; the queue may then
// hold up to about one share more per account that joins.
func (a *Activities) engineBusy(ctx context.Context, in contract.JobInput, def *tasks.Definition,
	plan *contract.Plan) (*contract.Failure, error) {
	q, ok := def.Runner.(engineQueue)
	if plan == nil || plan.Engine == "" || !ok || q.EngineName() != plan.Engine || q.EngineQueueLimit() <= 0 {
		return nil, nil
	}
	limit, slots := q.EngineQueueLimit(), max(q.EngineSlots(), 1)
	queued, accounts, err := a.queuedOn(ctx, in.JobID, 0, plan.Engine, limit+slots)
	if err != nil {
		return nil, err
	}
	lanes, err := models.EngineLanesInUse(ctx, a.DB, plan.Engine, a.now())
	if err != nil {
		return nil, err
	}
	busy := 0
	for lane, n := range lanes {
		if lane != models.EngineQueueLane {
			busy += n
		}
	}
	waiting := queued - max(slots-busy, 0)
	if waiting < limit {
		return nil, nil
	}
	own, _, err := a.queuedOn(ctx, in.JobID, in.UserID, plan.Engine, limit)
	if err != nil {
		return nil, err
	}
	accounts[in.UserID] = true
	if share := max(limit/len(accounts), 1); min(own, waiting) < share {
		return nil, nil
	}
	wait := fmt.Sprintf("%d jobs already wait", waiting)
	if waiting == 1 {
		wait = "1 job already waits"
	}
	return &contract.Failure{Code: contract.CodeCapacityBusy, Message: fmt.Sprintf(
		"The model server is busy: %s for it; submit again later.", wait)}, nil
}

// queuedOn counts the jobs other than jobID that are queued on engine
// (admitted, none of their steps started), up to most, of account user
// only when user is not 0, with the accounts they belong to.
func (a *Activities) queuedOn(ctx context.Context, jobID string, user uint64, engine string,
	most int) (int, map[uint64]bool, error) {
	var names []string
	for _, d := range a.registry().All() {
		if q, ok := d.Runner.(engineQueue); ok && q.EngineName() == engine {
			names = append(names, d.Name)
		}
	}
	jobs, err := models.QueuedJobsOf(ctx, a.DB, names, jobID, user, 4*most)
	if err != nil {
		return 0, nil, err
	}
	n, accounts := 0, map[uint64]bool{}
	for _, j := range jobs {
		def, err := a.registry().ForJob(j.Task)
		if err != nil {
			continue
		}
		var fields map[string]any
		if json.Unmarshal([]byte(j.Input), &fields) != nil {
			continue
		}
		input, err := def.Input(fields)
		if err != nil {
			continue
		}
		// A route may take only some of its task's jobs (when).
		if def.Runner.Plan(input).Engine == engine {
			n++
			accounts[j.UserID] = true
		}
		if n >= most {
			break
		}
	}
	return n, accounts, nil
}
