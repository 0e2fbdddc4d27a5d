package contract

import "time"

// Spend limit periods (the spend_period vocabulary): a UTC calendar day or
// month.
const (
	SpendDay   = "day"
	SpendMonth = "month"
)

// SpendPeriods lists the periods a spend limit counts over.
var SpendPeriods = []string{SpendDay, SpendMonth}

// Spend limit scopes (the spend_scope vocabulary): what a limit counts.
const (
	// SpendAccount counts every job of the account, whichever key (or the
	// app) started it.
	SpendAccount = "account"
	// SpendKey counts the jobs one API key started.
	SpendKey = "key"
)

// SpendScopes lists the scopes of a spend limit.
var SpendScopes = []string{SpendAccount, SpendKey}

// SpendThresholds are the percentages of a limit whose crossing sends one
// EventSpendThreshold per limit and period.
var SpendThresholds = []int{50, 80, 100}

// EventSpendThreshold is the account-level event of a spend limit whose
// spend reached one of SpendThresholds in its period.
const EventSpendThreshold = "spend.threshold"

// AccountEvents lists the account-level event kinds (webhook_event values
// that are not about one job).
var AccountEvents = []string{EventSpendThreshold, EventBatchCompleted}

// PeriodStart is the start of the period (SpendDay or SpendMonth, UTC)
// that holds t, and ResetsAt when it ends.
func PeriodStart(period string, t time.Time) time.Time {
	t = t.UTC()
	if period == SpendMonth {
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// PeriodEnd is when the period that holds t ends: the next UTC midnight,
// or the first of the next month.
func PeriodEnd(period string, t time.Time) time.Time {
	start := PeriodStart(period, t)
	if period == SpendMonth {
		return start.AddDate(0, 1, 0)
	}
	return start.AddDate(0, 0, 1)
}

// SpendLimitHit is the spend limit a job's hold would pass: the admit
// refuses the job and holds nothing.
type SpendLimitHit struct {
	// Scope is SpendAccount or SpendKey (APIKeyID names the key).
	Scope      string
	APIKeyID   string `json:",omitempty"`
	Period     string
	CreditType string
	// Limit is the most credits the period may spend; Spent what its jobs
	// hold or were charged so far; Required the job's hold.
	Limit, Spent, Required int64
	// ResetsAt is when the period ends and its spend starts again at 0.
	ResetsAt time.Time
}
