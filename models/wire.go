package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/taskplatform/taskplatform/wire"
)

// Wire is the public job record of j; baseURL prefixes its URLs.
func (j *Job) Wire(baseURL string) wire.Job {
	v := wire.Job{JobID: j.ID, Task: j.Task, Lifecycle: j.Lifecycle, Outcome: j.Outcome, Progress: j.WireProgress(),
		Error: json.RawMessage("null"), APIKeyID: nonEmpty(j.APIKeyID), CreatedAt: j.CreatedAt, StartedAt: j.StartedAt,
		EndedAt:   j.EndedAt,
		StatusURL: baseURL + "/v1/jobs/" + j.ID, ResultURL: baseURL + "/v1/jobs/" + j.ID + "/result",
		CancelURL: baseURL + "/v1/jobs/" + j.ID + "/cancel"}
	if j.Error != nil {
		v.Error = json.RawMessage(*j.Error)
	}
	v.Credits = wire.Credits{CreditType: j.CreditType, Held: j.HeldCredits}
	if j.SettledAt != nil {
		charged := j.ChargedCredits
		v.Credits.Charged = &charged
	}
	return v
}

// WireProgress is the public progress object of j.
func (j *Job) WireProgress() wire.Progress {
	return wire.Progress{Done: j.ProgressDone, Total: j.ProgressTotal, Phase: j.PublicPhase()}
}

// Wire is the public record of a delivered file; filesBase prefixes its
// download URL.
func (f *File) Wire(filesBase string) wire.File {
	return wire.File{File: f.Handle(), URL: f.URL(filesBase), MediaType: f.MediaType, Task: f.Task, JobID: f.JobID,
		CreatedAt: f.CreatedAt.UTC(), Data: f.WireData(), Bytes: f.Size, SHA256: nonEmpty(f.SHA256)}
}

// Digest is the lowercase hex SHA-256 of data, as File.SHA256 keeps it.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// WireData is a file's data (valid against its task's outputSchema), or
// null.
func (f *File) WireData() json.RawMessage {
	if f.Data == "" || f.Data == "null" {
		return json.RawMessage("null")
	}
	return json.RawMessage(f.Data)
}

// WireResult is the result page of job j holding files; more says whether
// further files follow (next is then the cursor of the next page).
func (j *Job) WireResult(files []File, filesBase string, more bool, next string) wire.Result {
	out := wire.Result{JobID: j.ID, Files: make([]wire.File, 0, len(files)), HasMore: more, NextCursor: next}
	for i := range files {
		out.Files = append(out.Files, files[i].Wire(filesBase))
	}
	if j.Summary != nil {
		out.Summary = json.RawMessage(*j.Summary)
	}
	return out
}

// Manifest is the signed statement of what ended job j delivered: files
// are every output it stored (DeliveredFiles); base is the issuer.
func (j *Job) Manifest(base string, files []File) wire.Manifest {
	m := wire.Manifest{Issuer: base, JobID: j.ID, Task: j.Task, TaskVersion: j.ServiceVersion,
		InputSHA256: Digest([]byte(j.Input)), Outcome: j.Outcome, CreatedAt: j.CreatedAt.UTC(), EndedAt: j.EndedAt,
		Outputs: make([]wire.ManifestFile, 0, len(files)), Credits: j.Wire(base).Credits}
	if m.EndedAt != nil {
		t := m.EndedAt.UTC()
		m.EndedAt = &t
	}
	for i := range files {
		f := &files[i]
		m.Outputs = append(m.Outputs, wire.ManifestFile{Index: f.Index, File: f.Handle(), MediaType: f.MediaType,
			Bytes: f.Size, SHA256: nonEmpty(f.SHA256)})
	}
	return m
}
