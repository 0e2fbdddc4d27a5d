// Package wire holds the public objects of a job as the API answers them
// and webhook bodies carry them — the job, its progress, its result and
// result files, and the event body — defined once, so an answer and a
// webhook can never drift apart. The error object is apierr.Error.
//
// It is types only, on the standard library and contract, so the Go client
// can import it; the conversions from stored rows are models' (Job.Wire,
// File.Wire, Job.WireResult).
package wire

import (
	"encoding/json"
	"time"

	"github.com/taskplatform/taskplatform/contract"
)

// Progress is a job's progress object. Total is null (nil) until the job
// has planned its work; in Go, read it with the client's Total
// (client.Total(p) answers the total and whether it is known) rather than
// dereferencing it.
type Progress struct {
	Done  int    `json:"done"`
	Total *int   `json:"total"`
	Phase string `json:"phase"`
}

// Job is the job record answered by the submit, GET /v1/jobs/{job_id} and
// the job list. Error is the error object of a job that failed or was
// cancelled, kept raw (JSON null otherwise) so that the record reads the
// same in every contract version; in Go, read it typed with the client's
// JobError (client.JobError(j) answers a *client.Error, nil for a job
// that has not ended or that succeeded).
type Job struct {
	JobID     string          `json:"job_id"`
	Task      string          `json:"task"`
	Lifecycle string          `json:"lifecycle"`
	Outcome   *string         `json:"outcome"`
	Progress  Progress        `json:"progress"`
	Error     json.RawMessage `json:"error"`
	Credits   Credits         `json:"credits"`
	// APIKeyID is the key that started the job; nil for a job started in
	// the app (the account panel).
	APIKeyID  *string    `json:"api_key_id"`
	CreatedAt time.Time  `json:"created_at"`
	StartedAt *time.Time `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at"`
	StatusURL string     `json:"status_url"`
	ResultURL string     `json:"result_url"`
	CancelURL string     `json:"cancel_url"`
	// Queue is where a queued job stands; nil (null) once it has started.
	Queue *Queue `json:"queue"`
}

// Queue is where a queued job stands and when it is expected to start.
type Queue struct {
	// Position is the job's place among its account's queued jobs in submit
	// order; 1 is the next to start.
	Position int64 `json:"position"`
	// ETASeconds estimates the seconds until the job starts, from the
	// service's measured run times and concurrency; nil (null) while there
	// is nothing to measure from.
	ETASeconds *int64 `json:"eta_seconds"`
}

// Credits are what a job holds and is charged, as the service counts
// them: price × outputs delivered, never above the hold.
type Credits struct {
	CreditType string `json:"credit_type"`
	// Held is what the submit held (0 while a late admit has not held yet).
	Held int64 `json:"held"`
	// Charged is what the job was charged once it ended; null before.
	Charged *int64 `json:"charged"`
}

// File is one file a job delivered, as a job result lists it.
type File struct {
	File      string          `json:"file"`
	URL       string          `json:"url"`
	MediaType string          `json:"media_type"`
	Task      string          `json:"task"`
	JobID     string          `json:"job_id"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
	// Bytes is the file's size in bytes.
	Bytes int64 `json:"bytes"`
	// SHA256 is the lowercase hex SHA-256 of the file's bytes, as the job's
	// signed manifest names it; null for a file stored before digests were
	// kept.
	SHA256 *string `json:"sha256"`
}

// Result is a job result: a page of its files, and the summary only when
// the task reports counts or warnings.
type Result struct {
	JobID      string          `json:"job_id"`
	Files      []File          `json:"files"`
	HasMore    bool            `json:"has_more"`
	NextCursor string          `json:"next_cursor,omitempty"`
	Summary    json.RawMessage `json:"summary,omitempty"`
}

// Event is the body of a job event delivered to a webhook or sent on the
// job's event stream. Queue is set on job.queue (stream only).
type Event struct {
	ID         string          `json:"id"`
	OccurredAt time.Time       `json:"occurred_at"`
	Event      string          `json:"event"`
	APIVersion string          `json:"api_version"`
	JobID      string          `json:"job_id"`
	Task       string          `json:"task"`
	Lifecycle  string          `json:"lifecycle"`
	Outcome    *string         `json:"outcome"`
	Progress   Progress        `json:"progress"`
	Result     *Result         `json:"result,omitempty"`
	Error      json.RawMessage `json:"error,omitempty"`
	Queue      *Queue          `json:"queue,omitempty"`
}

// ErrorIn is a stored error object as contract version v writes it: from
// before contract.VersionCreditsAtTop, required and balance are only in ctx.
// The API's answers and the webhook bodies both write job errors through
// it, so they follow the same version.
func ErrorIn(raw json.RawMessage, v string) json.RawMessage {
	if contract.CreditsAtTop(v) || len(raw) == 0 || string(raw) == "null" {
		return raw
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return raw
	}
	_, req := obj["required"]
	_, bal := obj["balance"]
	if !req && !bal {
		return raw
	}
	delete(obj, "required")
	delete(obj, "balance")
	out, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return out
}
