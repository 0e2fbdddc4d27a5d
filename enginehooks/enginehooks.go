// Package enginehooks is the use case of an engine's async prediction
// reporting to the service, apart from HTTP: the API's route takes the
// engine's webhook (Record) and stores it, and the step that waits for the
// prediction, on whichever worker runs it, reads it (Store). So a
// prediction outlives the worker that made it: no worker is reachable from
// the model servers, and a webhook that arrives while no worker runs the
// step waits in the database for the step's next attempt.
package enginehooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// Path is where the API takes the webhooks, below the callback base:
// {Path}/{prediction id}/{token}.
const Path = "/engines/predictions"

// ErrUnknown is a webhook for no prediction a step expects, or with
// another token: the route answers 404 (and the engine does not retry).
var ErrUnknown = errors.New("enginehooks: no such prediction")

// ErrBadBody is a webhook whose body is not a prediction.
var ErrBadBody = errors.New("enginehooks: the body is not a prediction")

// MaxBytes bounds a webhook's body: Cog sends the prediction with all its
// logs so far, which a chatty model makes long.
const MaxBytes = 16 << 20

// keptLogs is how much of a prediction's logs is stored: their end.
const keptLogs = 4 << 10

// Record stores the webhook body of prediction id, addressed with token,
// with the end of its logs only.
func Record(ctx context.Context, db *gorm.DB, id, token string, body []byte) error {
	var p map[string]json.RawMessage
	var status, logs string
	if err := json.Unmarshal(body, &p); err != nil || json.Unmarshal(p["status"], &status) != nil || status == "" {
		return ErrBadBody
	}
	if json.Unmarshal(p["logs"], &logs) == nil && len(logs) > keptLogs {
		p["logs"], _ = json.Marshal(strings.ToValidUTF8(logs[len(logs)-keptLogs:], ""))
		var err error
		if body, err = json.Marshal(p); err != nil {
			return ErrBadBody
		}
	}
	err := models.RecordEngineCompletion(ctx, db, id, token, status, body)
	if errors.Is(err, models.ErrNotFound) {
		return ErrUnknown
	}
	return err
}

// Store is the steps' side: engines.Completions on the service's database.
type Store struct {
	// DB is the database; a func so the store can be made before it opens.
	DB func() *gorm.DB
	// Base is the service's base address as the engines reach it
	// (TP_ENGINE_CALLBACK_URL).
	Base string
}

// NewStore checks base, the service's base address as the engines reach it.
func NewStore(db func() *gorm.DB, base string) (*Store, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("enginehooks: callback base %q is not an http(s) address", base)
	}
	return &Store{DB: db, Base: strings.TrimRight(base, "/")}, nil
}

// Expect makes prediction id known before it is created and answers the
// webhook address the engine is to report it to; the same in every
// attempt of its step.
func (s *Store) Expect(ctx context.Context, id string) (string, error) {
	token, err := models.ExpectEngineCompletion(ctx, s.DB(), id)
	if err != nil {
		return "", err
	}
	return s.Base + Path + "/" + id + "/" + token, nil
}

// Latest is the prediction's latest webhook body, nil before the first.
func (s *Store) Latest(ctx context.Context, id string) ([]byte, error) {
	return models.EngineCompletionOf(ctx, s.DB(), id)
}

// Reset forgets what was reported, keeping the address valid.
func (s *Store) Reset(ctx context.Context, id string) error {
	return models.ResetEngineCompletion(ctx, s.DB(), id)
}

// Forget deletes the prediction's row: its step has its result.
func (s *Store) Forget(ctx context.Context, id string) error {
	return models.ForgetEngineCompletion(ctx, s.DB(), id)
}
