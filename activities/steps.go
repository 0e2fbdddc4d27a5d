package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// start moves a queued job to running with its plan's progress total and
// phase (a job already running is left as it is).
func (a *Activities) start(ctx context.Context, job *models.Job, def *tasks.Definition, input tasks.Input) error {
	plan := def.Runner.Plan(input)
	if err := models.MarkRunning(ctx, a.DB, job.ID, plan.Steps, plan.Phase, a.now()); err != nil {
		return fmt.Errorf("mark running: %w", err)
	}
	return nil
}

// RunStep renders output Index of a job, stores it in the blob store and
// records it exactly once: a retried or repeated step returns the file the
// first attempt recorded. A step that leaves the queue (Start: one the
// job workflow starts before it knows the job left the queue) also moves
// the job to running, so leaving the queue costs the job workflow no
// activity of its own. Subscribed started and progress events
// are emitted from here.
//
// A failure reaches the caller in words (the job's error.message, or the
// output's output_not_produced warning): a *tasks.StepError with its own
// message, and once the step's last attempt has failed, anything else as
// an internal failure. The cause stays in the step's failure for the
// operator.
func (a *Activities) RunStep(ctx context.Context, in contract.StepInput) (contract.StepResult, error) {
	res, err := a.runStep(ctx, in)
	if err != nil && ctx.Err() == nil {
		err = stepFailure(ctx, err)
	}
	return res, err
}

// internalReason is what the caller reads of a step that failed on the
// service's side (its stores, a bug) every time it was tried.
const internalReason = "the service could not make it (an internal error; submitting the job again may work)"

// stepFailure is how a failed step ends: a permanent *tasks.StepError (or
// any error on the step's last attempt) fails for good with the caller's
// words; anything else is retried by the step's policy.
func stepFailure(ctx context.Context, err error) error {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return err // already a failure Temporal reads (a task no longer defined)
	}
	last := lastAttempt(ctx)
	var se *tasks.StepError
	switch {
	case errors.As(err, &se) && (!se.Temporary || last):
		return temporal.NewNonRetryableApplicationError(se.Message, se.Code, err)
	case last:
		return temporal.NewNonRetryableApplicationError(internalReason, contract.ErrTypeProcessing, err)
	}
	return err
}

// lastAttempt says whether this is the step's last attempt under its retry
// policy (no policy or no maximum: never).
func lastAttempt(ctx context.Context) bool {
	if !activity.IsActivity(ctx) {
		return false
	}
	info := activity.GetInfo(ctx)
	p := info.RetryPolicy
	return p != nil && p.MaximumAttempts > 0 && info.Attempt >= p.MaximumAttempts
}

// runStep is RunStep before its failure is put in the caller's words.
func (a *Activities) runStep(ctx context.Context, in contract.StepInput) (contract.StepResult, error) {
	job, def, input, err := a.parse(
		&models.Job{ID: in.JobID, UserID: in.UserID, Task: in.Task, Input: string(in.Input)},
	)
	if err != nil {
		return contract.StepResult{}, err
	}
	if in.Start {
		if err := a.start(ctx, job, def, input); err != nil {
			return contract.StepResult{}, err
		}
		a.emitQuietly(ctx, in.JobID, contract.EventStarted, 0, in.Events, in.Queue)
	}
	if err := a.delay(ctx); err != nil {
		return contract.StepResult{}, err
	}
	sctx := tasks.WithLoader(ctx, refLoader{a: a, userID: job.UserID})
	sctx = engines.WithInputURLs(sctx, engineInputs{a: a})
	sctx = tasks.WithEnv(
		sctx,
		tasks.Env{UserID: job.UserID, JobID: job.ID, DB: a.DB, Blob: a.Blob, FilesBaseURL: a.FilesBaseURL, Now: a.Now},
	)
	attempt := 1
	if activity.IsActivity(ctx) {
		attempt = int(activity.GetInfo(ctx).Attempt)
		// A step that ends because its worker stops (a deploy) leaves an
		// engine's prediction to the next attempt (engines/cog.go).
		sctx = tasks.WithStopping(sctx, activity.GetWorkerStopChannel(ctx))
	}
	sctx = tasks.WithStep(sctx, tasks.Step{JobID: job.ID, Index: in.Index, Attempt: attempt})
	if in.OnEngine {
		sctx = tasks.WithOnEngine(sctx)
	}
	sctx, note := tasks.WithStepNotes(sctx)
	// An engine's model progress, in the job's progress.phase.
	progress := a.newModelProgress(ctx, job.ID, func() string { return def.Runner.Plan(input).Phase })
	sctx = engines.WithProgress(sctx, progress)
	var outs []tasks.Output
	var short error // why a step of several outputs made fewer
	err = heartbeating(ctx, note, func() (err error) {
		outs, short, err = render(sctx, def.Runner, input, in)
		return err
	})
	progress.Stop()
	var handOff *tasks.HandOff
	if errors.As(err, &handOff) && !in.OnEngine {
		// Not delivered, so neither stored nor charged: the job runs the
		// output again on the route's engine.
		a.Log.Info("output handed off to the engine", zap.String("job_id", job.ID), zap.Int("index", in.Index),
			zap.String("reason", handOff.Reason))
		return contract.StepResult{HandOff: handOff.Reason}, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return contract.StepResult{}, ctx.Err()
		}
		return contract.StepResult{}, fmt.Errorf("render output %d: %w", in.Index, err)
	}
	var res contract.StepResult
	for k, out := range outs {
		id, err := a.record(ctx, job, in, in.Index+k, out)
		if err != nil {
			return contract.StepResult{}, err
		}
		if k == 0 {
			res.FileID, res.Engine = id, out.Engine
		} else {
			res.More = append(res.More, id)
		}
		res.Warnings = append(res.Warnings, out.Warnings...)
		if out.Uncharged {
			res.Uncharged++
		}
	}
	if short != nil {
		var se *tasks.StepError
		res.Missing = internalReason
		if errors.As(short, &se) {
			res.Missing = se.Message
		}
		a.Log.Warn("outputs not produced", zap.String("job_id", job.ID), zap.Int("index", in.Index+len(outs)),
			zap.Int("made", len(outs)), zap.Int("planned", in.Outputs), zap.Error(short))
	}
	return res, nil
}

// render makes the outputs of a step: its one output, or the several of a
// step that makes more (in.Outputs, a GroupRunner), with why it made fewer.
func render(ctx context.Context, r tasks.Runner, input tasks.Input, in contract.StepInput) (
	outs []tasks.Output, short, err error) {
	if g, ok := r.(tasks.GroupRunner); ok && in.Outputs > 1 {
		outs, err = g.StepGroup(ctx, input, in.Index, in.Outputs)
		switch {
		case len(outs) > in.Outputs:
			return nil, nil, fmt.Errorf("%d outputs made of the %d planned", len(outs), in.Outputs)
		case len(outs) < in.Outputs && err == nil:
			err = fmt.Errorf("%d outputs made of the %d planned", len(outs), in.Outputs)
		}
		if len(outs) > 0 && ctx.Err() == nil {
			return outs, err, nil
		}
		return nil, nil, err
	}
	out, err := r.Step(ctx, input, in.Index)
	if err != nil {
		return nil, nil, err
	}
	return []tasks.Output{out}, nil, nil
}

// record stores output i of a job and records it exactly once, answering
// its file's id; its subscribers get a progress event.
func (a *Activities) record(ctx context.Context, job *models.Job, in contract.StepInput, i int,
	out tasks.Output) (string, error) {
	key := fmt.Sprintf("jobs/%s/%d.%s", job.ID, i, out.Ext)
	if err := a.Blob.WriteAll(ctx, key, out.Data, nil); err != nil {
		return "", fmt.Errorf("store output %d: %w", i, err)
	}
	meta, _ := json.Marshal(out.Meta)
	f, err := models.AddOutput(
		ctx,
		a.DB,
		&models.File{ID: models.NewID(""), UserID: job.UserID, JobID: job.ID, Index: i,
			Task: job.Task, MediaType: out.MediaType, BlobKey: key, Size: int64(len(out.Data)),
			SHA256: models.Digest(out.Data), Data: string(meta)},
		a.now(),
	)
	if err != nil {
		return "", fmt.Errorf("record output %d: %w", i, err)
	}
	a.Log.Info(
		"output delivered",
		zap.String("job_id", job.ID),
		zap.Int("index", i),
		zap.String("file_id", f.ID),
		zap.String("engine", out.Engine),
	)
	a.emitQuietly(ctx, in.JobID, contract.EventProgress, i, in.Events, in.Queue)
	return f.ID, nil
}

// delay sleeps StepDelay while heartbeating, and stops when cancelled.
func (a *Activities) delay(ctx context.Context) error {
	if a.StepDelay <= 0 {
		return nil
	}
	deadline := time.Now().Add(a.StepDelay)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		activity.RecordHeartbeat(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// heartbeating runs fn while heartbeating, so a long render still reports
// liveness and learns of cancellation. Each heartbeat carries the step's
// latest note (tasks.StepNote: which engine runs it, the prediction's
// state), shown with the pending activity in the Temporal UI.
func heartbeating(ctx context.Context, note func() string, fn func() error) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if n := note(); n != "" {
					activity.RecordHeartbeat(ctx, n)
				} else {
					activity.RecordHeartbeat(ctx)
				}
			}
		}
	}()
	return fn()
}

// parse finds a job's task definition and decodes its stored input, once
// for the step: into its fields, then into the task's input struct.
func (a *Activities) parse(job *models.Job) (*models.Job, *tasks.Definition, tasks.Input, error) {
	def, err := a.registry().ForJob(job.Task)
	if err != nil {
		return nil, nil, tasks.Input{}, temporal.NewNonRetryableApplicationError(
			"task no longer defined: "+job.Task,
			contract.ErrTypeProcessing,
			err,
		)
	}
	var fields map[string]any
	err = json.Unmarshal([]byte(job.Input), &fields)
	var input tasks.Input
	if err == nil {
		input, err = def.Input(fields)
	}
	if err != nil {
		return nil, nil, tasks.Input{}, temporal.NewNonRetryableApplicationError(
			"stored input unreadable",
			contract.ErrTypeProcessing,
			err,
		)
	}
	return job, def, input, nil
}
