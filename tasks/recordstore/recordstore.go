// Package recordstore keeps the records task families make and read: the
// record a job makes, opened at submit and completed by the job's steps,
// and a record read by its handle for the account a job acts for. Every
// family that keeps records (tasks.RecordKind) writes and reads them here;
// what a kind's fields hold is its family's.
package recordstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// Kind is what the store needs of a record kind its jobs make.
type Kind struct {
	// Name is the handle's kind, such as moodboard.
	Name string
	// IDPrefix starts the ids of the records jobs make, such as mb_.
	IDPrefix string
	// Analysed marks a kind whose job analyses the record: it reads
	// analysing, not creating, until its job completes it.
	Analysed bool
}

// ID is the id of the record a job makes: fixed by the job's id, so a
// retried submit or step finds the same record.
func (k Kind) ID(jobID string) string { return k.IDPrefix + strings.TrimPrefix(jobID, "j_") }

// HandleOf is the handle of the record the step's job makes, or nil in a
// catalogue example (no env).
func (k Kind) HandleOf(ctx context.Context) any {
	env, ok := tasks.EnvOf(ctx)
	if !ok {
		return nil
	}
	return k.Name + ":" + k.ID(env.JobID)
}

// Open writes, at submit, the record env's job makes with its fields:
// analysing or creating until a step completes it. An estimate
// (env.DryRun) writes nothing.
func (k Kind) Open(ctx context.Context, env tasks.Env, name string, fields any) error {
	if env.DryRun {
		return nil
	}
	status := models.RecordCreating
	if k.Analysed {
		status = models.RecordAnalysing
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return models.CreateRecord(
		ctx,
		env.DB,
		&models.Record{ID: k.ID(env.JobID), Kind: k.Name, UserID: env.UserID,
			JobID: env.JobID, Name: name, Status: status, Fields: string(b)},
		env.Time(),
	)
}

// Complete marks the step's job's record ready with its fields and
// analysis (nil: none). Without an env (a catalogue example) it does
// nothing.
func (k Kind) Complete(ctx context.Context, fields, analysis any) error {
	env, ok := tasks.EnvOf(ctx)
	if !ok {
		return nil
	}
	f, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var a []byte
	if analysis != nil {
		if a, err = json.Marshal(analysis); err != nil {
			return err
		}
	}
	return models.CompleteRecord(ctx, env.DB, k.ID(env.JobID), string(f), string(a), env.Time())
}

// NoRecord is the refusal of a handle, sent in field, that names no record
// the account may read.
func NoRecord(field, ref string) *apierr.Error {
	kind, _, _ := strings.Cut(ref, ":")
	return apierr.Newf(apierr.InvalidRequest,
		"No %s %s belongs to the account or the curated library; list them at GET /v1/refs/%s.",
		strings.ReplaceAll(kind, "_", " "), ref, kind).WithField(field)
}

// Read reads the record behind ref, a handle of kind sent in field, that
// env's account may read: its own or a curated one, with its status read
// with its job (a record whose job ended without completing it is failed,
// with the reason). A handle of another kind, or of no such record,
// answers NoRecord.
func Read(ctx context.Context, env tasks.Env, kind, field, ref string) (r *models.Record, status, reason string,
	err error,
) {
	m := regexp.MustCompile(tasks.HandlePattern(kind)).FindStringSubmatch(ref)
	if m == nil {
		return nil, "", "", NoRecord(field, ref)
	}
	_, id, _ := strings.Cut(ref, ":")
	r, err = models.ReadRecord(ctx, env.DB, env.UserID, kind, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, "", "", NoRecord(field, ref)
	}
	if err != nil {
		return nil, "", "", err
	}
	var job *models.Job
	if r.JobID != "" {
		jobs, _, err := models.RecordJobs(ctx, env.DB, []models.Record{*r})
		if err != nil {
			return nil, "", "", fmt.Errorf("read the job of %s: %w", ref, err)
		}
		job = jobs[r.JobID]
	}
	status, reason = r.State(job)
	return r, status, reason, nil
}

// AbsoluteURL answers a stored file's address, kept relative in a record
// (/files/{id}.{ext}), under the files base URL; any other address is
// answered as it is.
func AbsoluteURL(base, url string) string {
	if strings.HasPrefix(url, "/files/") {
		return base + url
	}
	return url
}
