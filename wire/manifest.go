package wire

import "time"

// ManifestType is the typ of a manifest's JWS header.
const ManifestType = "tp-manifest+jws"

// Manifest is what GET /v1/jobs/{job_id}/manifest signs once a job has
// ended: the task and the contract version it ran under, a digest of its
// input, the digest of every output it delivered and the credits it was
// charged. The same job always gives the same manifest: it proves what was
// delivered, so an output the account deletes later stays in it as it was
// delivered (its handle then answers 404).
type Manifest struct {
	// Issuer is the service's public base address.
	Issuer string `json:"iss"`
	JobID  string `json:"job_id"`
	Task   string `json:"task"`
	// TaskVersion is the dated contract version (Service-Version) the job
	// was submitted under; a task's behaviour changes only with one.
	TaskVersion string `json:"task_version"`
	// InputSHA256 is the lowercase hex SHA-256 of the job's input as
	// stored: the validated JSON, defaults applied, keys sorted.
	InputSHA256 string         `json:"input_sha256"`
	Outcome     *string        `json:"outcome"`
	CreatedAt   time.Time      `json:"created_at"`
	EndedAt     *time.Time     `json:"ended_at"`
	Outputs     []ManifestFile `json:"outputs"`
	Credits     Credits        `json:"credits"`
}

// ManifestFile is one delivered output in a manifest, in the task's order.
type ManifestFile struct {
	Index     int    `json:"index"`
	File      string `json:"file"`
	MediaType string `json:"media_type"`
	Bytes     int64  `json:"bytes"`
	// SHA256 is the digest of the bytes; null for an output stored before
	// digests were kept.
	SHA256 *string `json:"sha256"`
}
