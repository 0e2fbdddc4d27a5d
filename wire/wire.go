// Package wire holds the public objects of a job as the API answers them
// and webhook bodies carry them — the job, its progress, its result and
// result files, and the event body — defined once, so an answer and a
// webhook can never drift apart. The error object is apierr.Error.
package wire

import (
	"encoding/json"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// Progress is a job's progress object.
type Progress struct {
	Done  int    `json:"done"`
	Total *int   `json:"total"`
	Phase string `json:"phase"`
}

// Job is the job record answered by the submit, GET /v1/jobs/{job_id} and
// the job list.
type Job struct {
	JobID     string          `json:"job_id"`
	Task      string          `json:"task"`
	Lifecycle string          `json:"lifecycle"`
	Outcome   *string         `json:"outcome"`
	Progress  Progress        `json:"progress"`
	Error     json.RawMessage `json:"error"`
	APIKeyID  string          `json:"api_key_id"`
	CreatedAt time.Time       `json:"created_at"`
	StartedAt *time.Time      `json:"started_at"`
	EndedAt   *time.Time      `json:"ended_at"`
	StatusURL string          `json:"status_url"`
	ResultURL string          `json:"result_url"`
	CancelURL string          `json:"cancel_url"`
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

// Event is the body of a job event delivered to a webhook.
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
}

// NewJob is the public job record of j; baseURL prefixes its URLs.
func NewJob(j *models.Job, baseURL string) Job {
	v := Job{JobID: j.ID, Task: j.Task, Lifecycle: j.Lifecycle, Outcome: j.Outcome, Progress: NewProgress(j),
		Error: json.RawMessage("null"), APIKeyID: j.APIKeyID, CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, EndedAt: j.EndedAt,
		StatusURL: baseURL + "/v1/jobs/" + j.ID, ResultURL: baseURL + "/v1/jobs/" + j.ID + "/result", CancelURL: baseURL + "/v1/jobs/" + j.ID + "/cancel"}
	if j.Error != nil {
		v.Error = json.RawMessage(*j.Error)
	}
	return v
}

// NewProgress is the progress object of j.
func NewProgress(j *models.Job) Progress {
	return Progress{Done: j.ProgressDone, Total: j.ProgressTotal, Phase: j.PublicPhase()}
}

// NewFile is the public record of a delivered file; filesBase prefixes its
// download URL.
func NewFile(f *models.File, filesBase string) File {
	return File{File: f.Handle(), URL: f.URL(filesBase), MediaType: f.MediaType, Task: f.Task, JobID: f.JobID,
		CreatedAt: f.CreatedAt.UTC(), Data: Data(f)}
}

// Data is a file's data (valid against its task's outputSchema), or null.
func Data(f *models.File) json.RawMessage {
	if f.Data == "" || f.Data == "null" {
		return json.RawMessage("null")
	}
	return json.RawMessage(f.Data)
}

// NewResult is the result page of job j holding files; more says whether
// further files follow (next is then the cursor of the next page).
func NewResult(j *models.Job, files []models.File, filesBase string, more bool, next string) Result {
	out := Result{JobID: j.ID, Files: make([]File, 0, len(files)), HasMore: more, NextCursor: next}
	for i := range files {
		out.Files = append(out.Files, NewFile(&files[i], filesBase))
	}
	if j.Summary != nil {
		out.Summary = json.RawMessage(*j.Summary)
	}
	return out
}

// ErrorIn is a stored error object as contract version v writes it: from
// contract.VersionCreditsInCtx on, required and balance are only in ctx.
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
