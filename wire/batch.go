package wire

import (
	"encoding/json"
	"time"
)

// Batch statuses.
const (
	// BatchStarting: the batch's jobs are written and their credits held;
	// some of their workflows are still being started.
	BatchStarting = "starting"
	// BatchRunning: every job is started and some have not ended.
	BatchRunning = "running"
	// BatchCompleted: every job has ended (batch.completed was sent).
	BatchCompleted = "completed"
)

// Batch is a batch's record: the answer of POST /v1/batches and of GET
// /v1/batches/{batch_id}, and the body of its batch.completed event.
type Batch struct {
	BatchID     string        `json:"batch_id"`
	Mode        string        `json:"mode"`
	Status      string        `json:"status"`
	CreatedAt   time.Time     `json:"created_at"`
	CompletedAt *time.Time    `json:"completed_at"`
	Counts      BatchCounts   `json:"counts"`
	Outputs     BatchOutputs  `json:"outputs"`
	Credits     []BatchCredit `json:"credits"`
	Jobs        []BatchJob    `json:"jobs"`
	Refused     []RefusedItem `json:"refused"`
	StatusURL   string        `json:"status_url"`
}

// BatchCounts are a batch's jobs by state.
type BatchCounts struct {
	Jobs      int `json:"jobs"`
	Queued    int `json:"queued"`
	Running   int `json:"running"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
	Cancelled int `json:"cancelled"`
}

// BatchOutputs are the outputs a batch's jobs delivered of those planned.
type BatchOutputs struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// BatchCredit is what a batch's jobs of one credit type hold and were charged.
type BatchCredit struct {
	CreditType string `json:"credit_type"`
	Held       int64  `json:"held"`
	Charged    int64  `json:"charged"`
}

// BatchJob is one job of a batch: the index of its item and its state.
type BatchJob struct {
	Index     int     `json:"index"`
	JobID     string  `json:"job_id"`
	Task      string  `json:"task"`
	Lifecycle string  `json:"lifecycle"`
	Outcome   *string `json:"outcome"`
}

// RefusedItem is an item a batch refused: its index and the error its
// submit would have answered.
type RefusedItem struct {
	Index int             `json:"index"`
	Error json.RawMessage `json:"error"`
}

// BatchEvent is the body of a batch.completed delivery: the batch's record
// once every job has ended.
type BatchEvent struct {
	ID         string    `json:"id"`
	OccurredAt time.Time `json:"occurred_at"`
	Event      string    `json:"event"`
	APIVersion string    `json:"api_version"`
	Batch      Batch     `json:"batch"`
}
