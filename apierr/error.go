package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/taskplatform/taskplatform/contract"
)

// Ctx carries the numeric context of an error.
type Ctx struct {
	Required   *int64 `json:"required,omitempty"`
	Balance    *int64 `json:"balance,omitempty"`
	RetryAfter *int64 `json:"retry_after,omitempty"`
	// MaxCredits is the submit's X-Service-Max-Credits, beside required,
	// when the job's hold would pass it (max_credits_exceeded).
	MaxCredits *int64 `json:"max_credits,omitempty"`
	// Limit, Spent, Period, Scope, CreditType and ResetsAt name the spend
	// limit a job's hold would pass (spend_limit_reached), beside
	// required: the limit's credits, what its period has spent, day or
	// month, account or key, and when the period ends.
	Limit      *int64     `json:"limit,omitempty"`
	Spent      *int64     `json:"spent,omitempty"`
	Period     *string    `json:"period,omitempty"`
	Scope      *string    `json:"scope,omitempty"`
	CreditType *string    `json:"credit_type,omitempty"`
	ResetsAt   *time.Time `json:"resets_at,omitempty"`
	// Items are the refused items of a batch, by index (batch_refused).
	Items []ItemError `json:"items,omitempty"`
}

// ItemError is the refusal of one item of a batch: its index in the
// request's items and the error its submit would answer.
type ItemError struct {
	Index int    `json:"index"`
	Error *Error `json:"error"`
}

// Error is the public error object; it is also a Go error.
type Error struct {
	Code      Code    `json:"code"`
	Type      Type    `json:"type"`
	Message   string  `json:"message"`
	Field     *string `json:"field"`
	Retryable bool    `json:"retryable"`
	Docs      string  `json:"docs,omitempty"`
	RequestID *string `json:"request_id"`
	Ctx       Ctx     `json:"ctx"`
	Input     any     `json:"input"`
	JobID     string  `json:"job_id,omitempty"`
	Required  *int64  `json:"required,omitempty"`
	Balance   *int64  `json:"balance,omitempty"`
	// Status is the HTTP status the error answers with; not serialised.
	Status int `json:"-"`
}

// Error implements the error interface.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// New builds an error of a catalogue code with a message. An unknown code is
// a programming error and becomes internal.
func New(c Code, message string) *Error {
	en, ok := byCode[c]
	if !ok {
		en = byCode[Internal]
	}
	if message == "" {
		message = en.Meaning
	}
	status := en.Status
	if status == 0 {
		status = http.StatusConflict
	}
	e := &Error{
		Code:      en.Code,
		Type:      en.Type,
		Message:   message,
		Retryable: en.Retryable,
		Docs:      DocsURL(en.Code),
		Status:    status,
	}
	return e.WithDefaultRetryAfter()
}

// Newf is New with a formatted message.
func Newf(c Code, format string, args ...any) *Error { return New(c, fmt.Sprintf(format, args...)) }

// WithField sets the public path of the offending input.
func (e *Error) WithField(path string) *Error {
	e.Field = &path
	return e
}

// WithStatus overrides the HTTP status (for example a job error answered on a wait).
func (e *Error) WithStatus(status int) *Error {
	e.Status = status
	return e.WithDefaultRetryAfter()
}

// WithCredits sets required and balance, at the top level and in ctx.
func (e *Error) WithCredits(required, balance int64) *Error {
	e.Required, e.Balance = &required, &balance
	e.Ctx.Required, e.Ctx.Balance = &required, &balance
	return e
}

// WithMaxCredits records the hold a job needs and the ceiling the submit
// set (max_credits_exceeded).
func (e *Error) WithMaxCredits(required, ceiling int64) *Error {
	e.Ctx.Required, e.Ctx.MaxCredits = &required, &ceiling
	return e
}

// SpendLimitError is the 402 spend_limit_reached of a hold that would pass
// the spend limit l.
func SpendLimitError(l contract.SpendLimitHit) *Error {
	who := "the account's"
	if l.Scope == contract.SpendKey {
		who = "the API key's"
	}
	return Newf(SpendLimitReached, "The job needs %d %s; %s %s limit is %d and %d are spent until %s.",
		l.Required, l.CreditType, who, l.Period, l.Limit, l.Spent, l.ResetsAt.UTC().Format(time.RFC3339)).
		WithSpendLimit(l)
}

// WithSpendLimit records the spend limit l a job's hold would pass.
func (e *Error) WithSpendLimit(l contract.SpendLimitHit) *Error {
	at := l.ResetsAt.UTC()
	e.Ctx.Required, e.Ctx.Limit, e.Ctx.Spent = &l.Required, &l.Limit, &l.Spent
	e.Ctx.Period, e.Ctx.Scope, e.Ctx.CreditType, e.Ctx.ResetsAt = &l.Period, &l.Scope, &l.CreditType, &at
	return e
}

// WithItems records the refused items of a batch (batch_refused).
func (e *Error) WithItems(items []ItemError) *Error {
	e.Ctx.Items = items
	return e
}

// WithRetryAfter sets ctx.retry_after in seconds.
func (e *Error) WithRetryAfter(seconds int64) *Error {
	e.Ctx.RetryAfter = &seconds
	return e
}

// DefaultRetryAfter is the wait, in seconds, a 429 or 503 answer names
// when its builder gave none.
const DefaultRetryAfter = 2

// WithDefaultRetryAfter sets ctx.retry_after to DefaultRetryAfter when the
// status is 429 or 503 and no positive wait is set: such an answer always
// says how long to wait.
func (e *Error) WithDefaultRetryAfter() *Error {
	if (e.Ctx.RetryAfter == nil || *e.Ctx.RetryAfter <= 0) &&
		(e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable) {
		return e.WithRetryAfter(DefaultRetryAfter)
	}
	return e
}

// As returns the *Error inside err, or an internal error that hides err's text.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(Internal, "")
}

// Envelope is the wire wrapper { "error": {...} }.
type Envelope struct {
	Error *Error `json:"error"`
}

// WithJob names the job the error belongs to.
func (e *Error) WithJob(jobID string) *Error {
	e.JobID = jobID
	return e
}
