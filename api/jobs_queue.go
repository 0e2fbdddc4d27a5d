package api

import (
	"context"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// queueReader answers where queued jobs stand, measuring the fleet once
// for all the jobs of one answer.
type queueReader struct {
	d     *Deps
	fleet *models.QueueFleet
}

// of is where job j stands: nil for a job that is not queued.
func (q *queueReader) of(ctx context.Context, j *models.Job) (*wire.Queue, error) {
	if j.Lifecycle != contract.LifecycleQueued {
		return nil, nil
	}
	if q.fleet == nil {
		f, err := models.MeasureQueue(ctx, q.d.DB)
		if err != nil {
			return nil, err
		}
		q.fleet = &f
	}
	spot, err := models.QueuePosition(ctx, q.d.DB, j)
	if err != nil {
		return nil, err
	}
	out := &wire.Queue{Position: spot.Position}
	if eta, ok := q.fleet.ETA(spot.Ahead); ok {
		out.ETASeconds = &eta
	}
	return out, nil
}
