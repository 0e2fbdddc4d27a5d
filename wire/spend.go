package wire

import "time"

// SpendThresholdEvent is the body of a spend.threshold delivery: an
// account-level event, signed and sent like a job event, once per limit,
// period and threshold.
type SpendThresholdEvent struct {
	ID         string    `json:"id"`
	OccurredAt time.Time `json:"occurred_at"`
	Event      string    `json:"event"`
	APIVersion string    `json:"api_version"`
	// Threshold is the percentage of the limit the period's spend reached;
	// 100 also when the limit first refuses a hold in the period.
	Threshold int `json:"threshold"`
	// Scope is account or key; APIKeyID names the key of a key's limit.
	Scope      string  `json:"scope"`
	APIKeyID   *string `json:"api_key_id"`
	Period     string  `json:"period"`
	CreditType string  `json:"credit_type"`
	// Limit is the limit's credits; Spent what the period had spent once
	// the job named by JobID was admitted, or when the limit refused its
	// hold (then below Limit).
	Limit       int64     `json:"limit"`
	Spent       int64     `json:"spent"`
	PeriodStart time.Time `json:"period_start"`
	ResetsAt    time.Time `json:"resets_at"`
	JobID       string    `json:"job_id"`
}
