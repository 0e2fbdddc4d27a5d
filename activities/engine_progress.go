package activities

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/models"
)

// progressEvery is how often, at most, the model progress of a job's
// engine steps is written to its row (progress.phase); tests shorten it.
var progressEvery = 2 * time.Second

// progressWrites are the jobs whose engine steps report progress in this
// process, with when each was last written: the steps of one job share
// progressEvery.
var progressWrites = struct {
	sync.Mutex
	jobs map[string]*jobWrites
}{jobs: map[string]*jobWrites{}}

type jobWrites struct {
	last  time.Time
	steps int
}

// modelProgress is an engine step's taker of its model's progress
// (engines.Progress): the latest is written to the job's progress.phase
// ("generating (model 45%)") by a goroutine of its own, at most every
// progressEvery for the job, so a report never waits for the database and
// neither does the prediction's completion. Stop ends it and sets the
// phase back to the plan's, unless another step wrote since.
type modelProgress struct {
	a     *Activities
	ctx   context.Context
	jobID string
	base  func() string

	mu      sync.Mutex
	latest  string
	started bool
	stop    chan struct{}
	stopped chan struct{}
	written string // the phase this step wrote last
}

// newModelProgress is the taker of job jobID's engine step; base is the
// plan's phase.
func (a *Activities) newModelProgress(ctx context.Context, jobID string, base func() string) *modelProgress {
	return &modelProgress{a: a, ctx: context.WithoutCancel(ctx), jobID: jobID, base: base,
		stop: make(chan struct{}), stopped: make(chan struct{})}
}

// Report implements engines.Progress.
func (p *modelProgress) Report(progress string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latest = progress
	if !p.started {
		p.started = true
		progressWrites.Lock()
		w := progressWrites.jobs[p.jobID]
		if w == nil {
			w = &jobWrites{}
			progressWrites.jobs[p.jobID] = w
		}
		w.steps++
		progressWrites.Unlock()
		go p.run()
	}
}

// run writes the latest progress when it changed and the job's last write
// is progressEvery old, until Stop.
func (p *modelProgress) run() {
	defer close(p.stopped)
	base := p.base()
	tick := time.NewTicker(progressEvery / 4)
	defer tick.Stop()
	for {
		p.mu.Lock()
		phase := base + " (model " + p.latest + ")"
		p.mu.Unlock()
		if phase != p.written && p.due() {
			ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
			err := models.SetRunningPhase(ctx, p.a.DB, p.jobID, phase, p.a.now())
			cancel()
			if err != nil {
				p.a.Log.Debug("model progress not written", zap.String("job_id", p.jobID), zap.Error(err))
			} else {
				p.written = phase
			}
		}
		select {
		case <-p.stop:
			if p.written != "" {
				ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
				_ = models.RestorePhase(ctx, p.a.DB, p.jobID, p.written, base, p.a.now())
				cancel()
			}
			return
		case <-tick.C:
		}
	}
}

// due says whether the job's progress may be written now, and counts the
// write when it may.
func (p *modelProgress) due() bool {
	progressWrites.Lock()
	defer progressWrites.Unlock()
	w := progressWrites.jobs[p.jobID]
	if time.Since(w.last) < progressEvery {
		return false
	}
	w.last = time.Now()
	return true
}

// Stop ends the writes (the step has its answer) and sets the phase back.
func (p *modelProgress) Stop() {
	p.mu.Lock()
	started := p.started
	p.started = true // no goroutine after Stop
	p.mu.Unlock()
	if !started {
		return
	}
	close(p.stop)
	<-p.stopped
	progressWrites.Lock()
	defer progressWrites.Unlock()
	if w := progressWrites.jobs[p.jobID]; w != nil {
		if w.steps--; w.steps <= 0 {
			delete(progressWrites.jobs, p.jobID)
		}
	}
}
