package models

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// EngineCompletion is an engine's async prediction as its latest webhook
// reported it to the API: a step on any worker reads it, so the prediction
// does not depend on the process that made it. The row is made before the
// prediction is (with the token the webhook's address carries) and deleted
// once the step has its result.
type EngineCompletion struct {
	// PredictionID is the step's prediction id (engines.stepPredictionID).
	PredictionID string `gorm:"primaryKey;size:64"`
	// Token is the unguessable part of the webhook's address.
	Token string `gorm:"size:64;not null"`
	// Status is the prediction's status as last reported; empty until the
	// first webhook. An ended status is final.
	Status string `gorm:"size:32;not null;default:''"`
	// Body is the webhook's JSON, the prediction.
	Body      []byte
	CreatedAt time.Time
	UpdatedAt time.Time
}

// RunningWrites is how often, at most, a running prediction's webhook is
// stored: the later ones within it are answered but not kept (its end is
// always kept).
var RunningWrites = 2 * time.Second

// endedStatuses are the statuses a later webhook does not overwrite.
var endedStatuses = []string{"succeeded", "failed", "canceled"}

// ExpectEngineCompletion makes prediction id's row when it has none and
// answers its token: every attempt of a step gets the same one, so the
// address an earlier attempt gave the engine stays valid.
func ExpectEngineCompletion(ctx context.Context, db *gorm.DB, id string) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("engine completion token: %w", err)
	}
	row := EngineCompletion{PredictionID: id, Token: hex.EncodeToString(b)}
	if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return "", fmt.Errorf("engine completion %s: %w", id, err)
	}
	var got EngineCompletion
	if err := db.WithContext(ctx).Select("token").Take(&got, "prediction_id = ?", id).Error; err != nil {
		return "", fmt.Errorf("engine completion %s: %w", id, err)
	}
	return got.Token, nil
}

// RecordEngineCompletion stores a webhook of prediction id: ErrNotFound
// when no step expects it or the token is not its own. A webhook after
// the prediction's end changes nothing.
func RecordEngineCompletion(ctx context.Context, db *gorm.DB, id, token, status string, body []byte) error {
	var row EngineCompletion
	err := db.WithContext(ctx).Select("token").Take(&row, "prediction_id = ?", id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("engine completion %s: %w", id, err)
	}
	if subtle.ConstantTimeCompare([]byte(row.Token), []byte(token)) != 1 {
		return ErrNotFound
	}
	now := time.Now()
	q := db.WithContext(ctx).Model(&EngineCompletion{}).
		Where("prediction_id = ? AND status NOT IN ?", id, endedStatuses)
	if !slices.Contains(endedStatuses, status) {
		// A running prediction's logs come at every line its model prints
		// (Cog: at most every 0.5 s): one of them is kept per RunningWrites.
		q = q.Where("status = '' OR updated_at < ?", now.Add(-RunningWrites))
	}
	err = q.Updates(map[string]any{"status": status, "body": body, "updated_at": now}).Error
	if err != nil {
		return fmt.Errorf("engine completion %s: %w", id, err)
	}
	return nil
}

// EngineCompletionOf answers prediction id's latest webhook: nil when none
// came (or no row exists).
func EngineCompletionOf(ctx context.Context, db *gorm.DB, id string) ([]byte, error) {
	var row EngineCompletion
	err := db.WithContext(ctx).Select("status", "body").Take(&row, "prediction_id = ?", id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && row.Status == "") {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("engine completion %s: %w", id, err)
	}
	return row.Body, nil
}

// ResetEngineCompletion forgets prediction id's reported state but keeps
// its token: its step runs the prediction again, and a webhook of the
// running one still reaches it.
func ResetEngineCompletion(ctx context.Context, db *gorm.DB, id string) error {
	err := db.WithContext(ctx).Model(&EngineCompletion{}).Where("prediction_id = ?", id).
		Updates(map[string]any{"status": "", "body": nil, "updated_at": time.Now()}).Error
	if err != nil {
		return fmt.Errorf("engine completion %s: %w", id, err)
	}
	return nil
}

// ForgetEngineCompletion deletes prediction id's row: its step has its
// result, or starts the prediction anew.
func ForgetEngineCompletion(ctx context.Context, db *gorm.DB, id string) error {
	if err := db.WithContext(ctx).Delete(&EngineCompletion{}, "prediction_id = ?", id).Error; err != nil {
		return fmt.Errorf("engine completion %s: %w", id, err)
	}
	return nil
}
