// Package batchstart starts the workflows of a batch's jobs: the request
// that wrote the batch starts them (submit), and the workers' sweep starts
// those of a batch whose request stopped part way (activities.LateAdmits).
package batchstart

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// Send sends a job's admit with the start of its workflow on queue (the
// update-with-start of jobstart.SendAdmit).
type Send func(ctx context.Context, in contract.JobInput, queue string) error

// Parallel is how many admits of batches' jobs one process sends
// at once, whatever the number of batches: each is a workflow start and a
// hold read under the account's lock, so batches of a thousand neither
// flood Temporal nor take every database connection.
const Parallel = 8

// batchStartSlots bound the admits of every batch a process starts.
var batchStartSlots = make(chan struct{}, Parallel)

// Jobs starts the workflows of a batch's jobs on queue, in the
// order of ins (item order), at most Parallel at once in the
// process (so jobs a few items apart may start in either order), with
// send (the job's idempotent admit: its workflow id is the job id,
// written with the batch). The jobs were written with their holds, so each admit
// finds its hold and holds nothing more.
// A job that has left the queue already has its workflow and is skipped
// by the caller; one whose workflow closed meanwhile counts as started.
// It answers the first failure after trying every job.
func Jobs(ctx context.Context, send Send, ins []contract.JobInput, queue string) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, in := range ins {
		select {
		case batchStartSlots <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		}
		wg.Go(func() {
			defer func() { <-batchStartSlots }()
			err := send(ctx, in, queue)
			var closed *serviceerror.WorkflowExecutionAlreadyStarted
			if err != nil && !errors.As(err, &closed) {
				mu.Lock()
				if first == nil {
					first = fmt.Errorf("start job %s: %w", in.JobID, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// Batch starts the workflows of batch b's queued jobs, at the batch
// priority with the account's weight, and, once every one is started,
// marks the batch started.
func Batch(ctx context.Context, db *gorm.DB, send Send, b *models.Batch, now func() time.Time) error {
	ins, err := models.BatchJobInputs(ctx, db, b.ID, true)
	if err != nil {
		return err
	}
	weight, err := models.AccountWeight(ctx, db, b.UserID)
	if err != nil {
		return err
	}
	for i := range ins {
		ins[i].Intent, ins[i].Weight = contract.IntentBatch, weight
	}
	if err := Jobs(ctx, send, ins, b.Queue); err != nil {
		return err
	}
	return models.MarkBatchStarted(ctx, db, b.ID, now())
}
