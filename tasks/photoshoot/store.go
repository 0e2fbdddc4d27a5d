package photoshoot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// stored are the kinds of record the family's jobs make, as the record
// store keeps them.
var stored = map[string]recordstore.Kind{
	kindPhotoshoot: {Name: kindPhotoshoot, IDPrefix: "sh_"},
	kindModel:      {Name: kindModel, IDPrefix: "ms_"},
}

// recordID is the id of the record of kind a job makes.
func recordID(kind, jobID string) string { return stored[kind].ID(jobID) }

// handleOf is the handle of the record of kind the step's job makes, or
// nil in a catalogue example.
func handleOf(ctx context.Context, kind string) any { return stored[kind].HandleOf(ctx) }

// openRecord writes, at submit, the record of kind a job makes, creating
// until its job completes it.
func openRecord(ctx context.Context, env tasks.Env, kind, name string, fields any) error {
	return stored[kind].Open(ctx, env, name, fields)
}

// completeRecord marks the step's job's record of kind ready with its
// fields.
func completeRecord(ctx context.Context, kind string, fields any) error {
	return stored[kind].Complete(ctx, fields, nil)
}

// styleFields are a saved style's record fields.
type styleFields struct {
	// Base is the base model, model:<id>.
	Base string `json:"base"`
	Body
	// Images are the reference photos as sent.
	Images []string `json:"images"`
	// Adjustments are the proportions asked for.
	Adjustments map[string]float64 `json:"adjustments"`
}

// figureModel is a model a shoot dresses: a base, or a saved style.
type figureModel struct {
	Handle string
	Body   Body
	// Ready is false while a saved style's job has not finished.
	Ready bool
}

// readModel reads a model handle: a curated base, or a saved style of the
// env's account. Without an env (a catalogue example) only bases are read.
func readModel(ctx context.Context, env tasks.Env, field, ref string) (*figureModel, error) {
	if m, ok := baseByHandle(ref); ok {
		return &figureModel{Handle: ref, Body: m.Body, Ready: true}, nil
	}
	kind, id, _ := strings.Cut(ref, ":")
	if env.DB == nil || kind != kindModel {
		return nil, errNoModel(field, ref)
	}
	r, err := models.ReadRecord(ctx, env.DB, env.UserID, kindModel, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, errNoModel(field, ref)
	}
	if err != nil {
		return nil, err
	}
	var f styleFields
	if err := json.Unmarshal([]byte(r.Fields), &f); err != nil {
		return nil, fmt.Errorf("read model %s: %w", ref, err)
	}
	return &figureModel{Handle: ref, Body: f.Body, Ready: r.Status == models.RecordReady}, nil
}

// errNoModel refuses a model handle the account cannot use.
func errNoModel(field, ref string) *apierr.Error {
	return apierr.Newf(apierr.InvalidRequest, "No model %s is a base model or one of the account's saved styles; list them at GET /v1/refs/model.", ref).
		WithField(field)
}

// inStep turns a refusal met inside a step into the step's permanent
// failure (processing_failed); other errors are retried.
func inStep(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return &tasks.StepError{Code: contract.ErrTypeProcessing, Message: ae.Message}
	}
	return err
}
