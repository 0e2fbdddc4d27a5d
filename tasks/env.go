package tasks

import (
	"context"
	"time"

	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
)

// Env is what the service lends task code that reads or writes records (a
// moodboard, a brand kit, …): the account and job it acts for and the
// service's stores. The API passes it to an Admitter at submit; the worker
// puts it in the context of every step (EnvOf). Examples run without one.
type Env struct {
	// UserID is the account the job acts for.
	UserID uint64
	// JobID is the job's id (j_…).
	JobID string
	// DB is the system of record.
	DB *gorm.DB
	// Blob is the file store.
	Blob *blob.Bucket
	// FilesBaseURL starts the public URL of a stored file
	// ({FilesBaseURL}/files/{id}.{ext}).
	FilesBaseURL string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// DryRun marks an estimate: an Admitter runs every check it runs at
	// submit and writes nothing (JobID is empty).
	DryRun bool
}

// Time is the env's clock reading, in UTC.
func (e Env) Time() time.Time {
	if e.Now != nil {
		return e.Now().UTC()
	}
	return time.Now().UTC()
}

type envKey struct{}

// WithEnv gives the steps run under ctx the env of their job.
func WithEnv(ctx context.Context, e Env) context.Context {
	return context.WithValue(ctx, envKey{}, e)
}

// EnvOf is the env of the job a step runs for; ok is false where there is
// none (an example rendered by the catalogue).
func EnvOf(ctx context.Context) (Env, bool) {
	e, ok := ctx.Value(envKey{}).(Env)
	return e, ok && e.DB != nil
}

// Admitter is implemented by the Runner of a task that must look at the
// account's records before its job is admitted, or make records the job
// owns from the moment it is accepted (a moodboard listed while it is being
// analysed).
type Admitter interface {
	// Admit runs at submit, after validation and the reference checks and
	// before any credit is held, with env.JobID the job's id. An
	// *apierr.Error refuses the submit. It can run more than once for one
	// job id (a retried submit), so what it writes is idempotent; a job
	// that is then refused its credits never shows what Admit wrote. An
	// estimate runs it too, with env.DryRun set: every check, no write, so
	// an estimate refuses what a submit refuses.
	Admit(ctx context.Context, env Env, input Input) error
	// AdmitErrors lists every code Admit can answer.
	AdmitErrors() []apierr.Code
}
