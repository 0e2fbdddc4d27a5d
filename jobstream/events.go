// Package jobstream is the live stream of a job's events
// (GET /v1/jobs/{job_id}/events): the events' sequence numbers and bodies,
// read from the job's row, and the fan-out that wakes every open stream of
// a job when the activities record a change — PostgreSQL LISTEN/NOTIFY
// across processes, in-process on SQLite (dev runs the API and the worker
// in one process).
//
// A stream never polls the database: one notification makes one read of
// the job, shared by every stream of that job in the process, and each
// stream sends what it has not sent yet. Events are built from the row, so
// a stream opened or resumed at any time is correct without the
// notifications that came before it.
package jobstream

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// Sequence numbers of a job's events, the SSE id: monotonic per job, so
// Last-Event-ID resumes without gaps or repeats. job.started is 1,
// job.progress is 1 + progress.done (one per delivered output), and the
// terminal event is SeqTerminal, above any progress.
const (
	SeqStarted  int64 = 1
	SeqTerminal int64 = 1 << 40
)

// ProgressSeq is the sequence number of the job.progress event that raised
// progress.done to done.
func ProgressSeq(done int) int64 { return SeqStarted + int64(done) }

// Seq is the sequence number of an event body.
func Seq(ev wire.Event) int64 {
	switch ev.Event {
	case contract.EventStarted:
		return SeqStarted
	case contract.EventProgress:
		return ProgressSeq(ev.Progress.Done)
	}
	return SeqTerminal
}

// EventID is the body id (evt_…) of a job's event: kind, and for
// job.progress the index of the output delivered (progress.done - 1), 0
// for the others. It is the id the activities give the same event's webhook
// body, so a stream and a webhook name one event alike.
func EventID(jobID, kind string, index int) string { return eventID(jobID, kind, strconv.Itoa(index)) }

// eventID is the body id of the event the parts name.
func eventID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "evt_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])[:24])
}

// MaxEventFiles bounds the files a job.succeeded body lists, as webhooks do.
const MaxEventFiles = 1000

// Snapshot is a job as its streams read it: the row and its delivered
// files (for the times of progress events and a succeeded job's result),
// and where it stands while it is queued. Err is set when the read failed:
// the stream ends and the client resumes.
type Snapshot struct {
	Job   models.Job
	Files []models.File
	Queue QueueState
	Err   error
}

// Load reads a job's snapshot (whatever its owner: the caller checked it).
func Load(ctx context.Context, db *gorm.DB, jobID string) (*Snapshot, error) {
	j, err := models.JobByIDAny(ctx, db, jobID)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Job: *j}
	if j.Lifecycle == contract.LifecycleQueued {
		q, err := readQueue(ctx, db, []string{jobID})
		if err != nil {
			return nil, err
		}
		s.Queue = q[jobID]
	}
	if j.ProgressDone > 0 {
		if s.Files, _, err = models.JobFiles(ctx, db, jobID, -1, MaxEventFiles); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Ended says whether the job has ended.
func (s *Snapshot) Ended() bool { return s.Job.Lifecycle == contract.LifecycleTerminal }

// Frame is one event of a stream: its sequence number and body.
type Frame struct {
	Seq   int64
	Event wire.Event
}

// Terminal says whether the frame is the job's last.
func (f Frame) Terminal() bool { return f.Seq == SeqTerminal }

// Events are the job's events after sequence number last, in order.
// fresh (a stream opened without Last-Event-ID) starts at the job's
// current state instead of its beginning: an ended job's terminal event
// alone; a running job's job.started and its latest job.progress.
func (s *Snapshot) Events(last int64, fresh bool, filesBase string) []Frame {
	j := &s.Job
	ended := s.Ended()
	if fresh && ended {
		return []Frame{s.terminal(filesBase)}
	}
	var out []Frame
	started := j.StartedAt != nil || j.Lifecycle == contract.LifecycleRunning || (ended && j.ProgressDone > 0)
	if started && last < SeqStarted {
		out = append(out, s.started())
	}
	from := max(1, last) // the first done whose event is after last
	if fresh {
		from = max(from, int64(j.ProgressDone))
	}
	if last < SeqTerminal {
		for d := from; d <= int64(j.ProgressDone); d++ {
			out = append(out, s.progress(int(d)))
		}
	}
	if ended && last < SeqTerminal {
		out = append(out, s.terminal(filesBase))
	}
	return out
}

// running is the job as it was while it ran with done outputs delivered.
func (s *Snapshot) running(done int) *models.Job {
	j := s.Job
	j.Lifecycle, j.Outcome, j.ProgressDone, j.Error, j.Summary = contract.LifecycleRunning, nil, done, nil, nil
	return &j
}

func body(j *models.Job, kind, id string, at time.Time) wire.Event {
	return wire.Event{
		ID:         id,
		OccurredAt: at.UTC(),
		Event:      kind,
		APIVersion: contract.VersionOr(j.ServiceVersion),
		JobID:      j.ID,
		Task:       j.Task,
		Lifecycle:  j.Lifecycle,
		Outcome:    j.Outcome,
		Progress:   j.WireProgress(),
	}
}

func (s *Snapshot) started() Frame {
	at := s.Job.UpdatedAt
	if s.Job.StartedAt != nil {
		at = *s.Job.StartedAt
	}
	return Frame{SeqStarted, body(s.running(0), contract.EventStarted, EventID(s.Job.ID, contract.EventStarted, 0), at)}
}

// progress is the event of output done: it occurred when the done-th file
// was delivered (or at the row's last change when that file is gone).
func (s *Snapshot) progress(done int) Frame {
	times := make([]time.Time, 0, len(s.Files))
	for _, f := range s.Files {
		times = append(times, f.CreatedAt)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	at := s.Job.UpdatedAt
	if done <= len(times) {
		at = times[done-1]
	}
	return Frame{
		ProgressSeq(done),
		body(s.running(done), contract.EventProgress, EventID(s.Job.ID, contract.EventProgress, done-1), at),
	}
}

// terminal is the event of the job's outcome, carrying the result of a
// succeeded job (every file in one page, as a webhook does) or the error.
func (s *Snapshot) terminal(filesBase string) Frame {
	j := &s.Job
	kind := contract.EventFailed
	if j.Outcome != nil {
		if k, ok := contract.TerminalEvent[*j.Outcome]; ok {
			kind = k
		}
	}
	at := j.UpdatedAt
	if j.EndedAt != nil {
		at = *j.EndedAt
	}
	ev := body(j, kind, EventID(j.ID, kind, 0), at)
	switch kind {
	case contract.EventSucceeded:
		r := j.WireResult(s.Files, filesBase, false, "")
		ev.Result = &r
	default:
		if j.Error != nil {
			ev.Error = wire.ErrorIn(json.RawMessage(*j.Error), ev.APIVersion)
		}
	}
	return Frame{SeqTerminal, ev}
}
