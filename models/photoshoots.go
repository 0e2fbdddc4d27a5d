package models

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// The kinds of record the photoshoots family keeps (handles background:,
// pose:, pose_preset:, model:, photoshoot:). Backgrounds, poses, pose
// presets and base models are the curated library; a model's saved style
// and a photoshoot belong to an account and are made by a job.
const (
	RecordBackground = "background"
	RecordPose       = "pose"
	RecordPosePreset = "pose_preset"
	RecordModel      = "model"
	RecordPhotoshoot = "photoshoot"
)

// ShootKinds lists the photoshoots family's record kinds.
var ShootKinds = []string{RecordBackground, RecordPose, RecordPosePreset, RecordModel, RecordPhotoshoot}

// recordField is the SQL expression reading a string field of a record's
// JSON fields, in the database's dialect.
func recordField(db *gorm.DB, name string) string {
	if IsPostgres(db) {
		return "(records.fields::jsonb ->> '" + name + "')"
	}
	return "json_extract(records.fields, '$." + name + "')"
}

// JobOutputs lists the files a job delivered, in output order.
func JobOutputs(ctx context.Context, db *gorm.DB, jobID string) ([]File, error) {
	var out []File
	if err := db.WithContext(ctx).Where("job_id = ?", jobID).Order("idx").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("read outputs of %s: %w", jobID, err)
	}
	return out, nil
}
