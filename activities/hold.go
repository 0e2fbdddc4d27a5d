package activities

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/models"
)

// HoldInput is the job a submit asks to admit.
type HoldInput struct {
	JobID               string
	UserID              uint64
	APIKeyID            string
	Task                string
	Input               json.RawMessage
	CreditType          string
	HeldCredits         int64
	PricePerOutput      int64
	StartTimeoutSeconds int
	WebhookURL          string
	RequestID           string
	ServiceVersion      string
}

// HoldResult says whether the job was admitted; a refusal carries the amounts.
type HoldResult struct {
	Admitted  bool
	Required  int64
	Balance   int64
	CreatedAt time.Time
	// Events are the job events someone subscribes to: the job emits only these.
	Events []string `json:",omitempty"`
}

// HoldCredits writes the job row and its credit hold in one transaction, or
// refuses when the balance does not cover the hold. Run as a local activity
// inside the admit update; retrying it is safe (the job id is the key).
func (a *Activities) HoldCredits(ctx context.Context, in HoldInput) (HoldResult, error) {
	job := &models.Job{ID: in.JobID, UserID: in.UserID, APIKeyID: in.APIKeyID, Task: in.Task, Input: string(in.Input),
		CreditType: in.CreditType, HeldCredits: in.HeldCredits, PricePerOutput: in.PricePerOutput,
		StartTimeoutSeconds: in.StartTimeoutSeconds, WebhookURL: in.WebhookURL, RequestID: in.RequestID, ServiceVersion: in.ServiceVersion, Phase: "queued"}
	admitted, err := models.Admit(ctx, a.DB, job, a.now())
	var refusal *models.AdmitRefusal
	if errors.As(err, &refusal) {
		a.Log.Info("job refused: insufficient credits", zap.String("job_id", in.JobID), zap.Int64("required", refusal.Required), zap.Int64("balance", refusal.Balance))
		return HoldResult{Required: refusal.Required, Balance: refusal.Balance}, nil
	}
	if err != nil {
		return HoldResult{}, err
	}
	a.Log.Info("job admitted", zap.String("job_id", in.JobID), zap.String("task", in.Task), zap.Int64("held", in.HeldCredits))
	events, err := models.SubscribedEvents(ctx, a.DB, in.UserID)
	if err != nil {
		return HoldResult{}, err
	}
	if in.WebhookURL != "" {
		events = append(events, TerminalEvents...)
	}
	return HoldResult{Admitted: true, Required: in.HeldCredits, CreatedAt: admitted.CreatedAt, Events: events}, nil
}
