// Package activities holds the side effects of job workflows: credit holds,
// task steps, progress and settlement. It never imports workflows.
package activities

import (
	"time"

	"go.uber.org/zap"
	"gocloud.dev/blob"
	"gorm.io/gorm"
)

// Activities holds the dependencies of every activity. Workflows reference
// its methods through a nil *Activities.
type Activities struct {
	DB   *gorm.DB
	Blob *blob.Bucket
	Log  *zap.Logger
	// StepDelay is slept (heartbeating) before each task step; dev and tests only.
	StepDelay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (a *Activities) now() time.Time {
	if a.Now != nil {
		return a.Now().UTC()
	}
	return time.Now().UTC()
}

// Error types of activity failures the workflow branches on.
const (
	// ErrTypeProcessing is a step that cannot succeed with this input.
	ErrTypeProcessing = "processing_failed"
	// ErrTypeContentRefused is a step refused by content checks.
	ErrTypeContentRefused = "content_refused"
)
