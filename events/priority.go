package events

import (
	"context"

	"go.temporal.io/sdk/client"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/models"
)

// DeliveryStart is the start of delivery workflow id on queue for account
// userID: at the deliveries' priority level, the account as fairness key
// with its plan's weight (the default weight should the plan not be read:
// the delivery still goes).
func DeliveryStart(ctx context.Context, db *gorm.DB, userID uint64,
	id, queue, summary string) client.StartWorkflowOptions {
	weight, _ := models.AccountWeight(ctx, db, userID)
	return client.StartWorkflowOptions{ID: id, TaskQueue: queue, StaticSummary: summary,
		Priority: jobstart.TemporalPriority(contract.DeliveryPriority(userID, weight))}
}
