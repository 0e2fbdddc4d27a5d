package models

import (
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// migrateHoldsPerBatch is migration 0013: the jobs' hold_batches column,
// and every open hold written before it (one hold entry for the whole job,
// its credits still in the batches) taken out of the batches live now, in
// spend order, job by job in admit order, with its hold entry rewritten as
// one entry per batch. A hold whose batches expired meanwhile takes what
// the live ones still have; settlement then charges at most that.
func migrateHoldsPerBatch(tx *gorm.DB) error {
	if m := tx.Migrator(); !m.HasColumn(&Job{}, "HoldBatches") {
		if err := m.AddColumn(&Job{}, "HoldBatches"); err != nil {
			return fmt.Errorf("add jobs.hold_batches: %w", err)
		}
	}
	var open []Job
	if err := tx.Select("id, user_id, credit_type, held_credits").
		Where("settled_at IS NULL AND held_credits > 0 AND hold_batches = ''").Order("created_at, id").Find(
		&open).Error; err != nil {
		return fmt.Errorf("0013: read open holds: %w", err)
	}
	now := time.Now().UTC()
	for _, j := range open {
		var old LedgerEntry
		if err := tx.Where("job_id = ? AND kind = ? AND batch_id = 0", j.ID, LedgerHold).Take(&old).Error; err != nil {
			return fmt.Errorf("0013: hold entry of %s: %w", j.ID, err)
		}
		held, entries, err := hold(tx, j.UserID, j.CreditType, j.ID, j.HeldCredits, now)
		if err != nil {
			return fmt.Errorf("0013: %s: %w", j.ID, err)
		}
		if err := tx.Delete(&old).Error; err != nil {
			return fmt.Errorf("0013: %s: %w", j.ID, err)
		}
		for i := range entries {
			entries[i].CreatedAt = old.CreatedAt
		}
		if len(entries) > 0 {
			if err := tx.Create(&entries).Error; err != nil {
				return fmt.Errorf("0013: %s: %w", j.ID, err)
			}
		}
		if held == nil {
			held = []HeldBatch{} // nothing live was left: the hold took nothing
		}
		col, err := json.Marshal(held)
		if err != nil {
			return err
		}
		if err := tx.Model(&Job{}).Where("id = ?", j.ID).Update("hold_batches", string(col)).Error; err != nil {
			return fmt.Errorf("0013: %s: %w", j.ID, err)
		}
	}
	return nil
}
