package activities

import (
	"context"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// deliveryStart is the start of delivery workflow id on queue for account
// userID: at the deliveries' priority level, the account as fairness key
// with its plan's weight (the default weight should the plan not be read:
// the delivery still goes).
func deliveryStart(ctx context.Context, db *gorm.DB, userID uint64,
	id, queue, summary string) client.StartWorkflowOptions {
	weight, _ := models.AccountWeight(ctx, db, userID)
	p := contract.DeliveryPriority(userID, weight)
	return client.StartWorkflowOptions{ID: id, TaskQueue: queue, StaticSummary: summary,
		Priority: temporal.Priority{PriorityKey: p.Level, FairnessKey: p.FairnessKey, FairnessWeight: p.Weight}}
}
