package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// DeprecationNoticesWorkflow is what the deprecation-notices schedule runs
// weekly: PlanNotices writes the week's notices to the outbox, then each
// pending one is sent by SendNotice, retried by its retry policy. A notice
// is written once per account and week, and marked sent once, so a rerun
// (a trigger, a crash) never mails an account twice in a week.
func DeprecationNoticesWorkflow(ctx workflow.Context) error {
	plan := contract.NoticesPlan{}
	pctx := workflow.WithActivityOptions(ctx, planNoticesOptions())
	if err := workflow.ExecuteActivity(pctx, contract.ActivityPlanNotices).Get(ctx, &plan); err != nil {
		return err
	}
	sctx := workflow.WithActivityOptions(ctx, sendNoticeOptions())
	futures := make([]workflow.Future, len(plan.Pending))
	for i, id := range plan.Pending {
		futures[i] = workflow.ExecuteActivity(sctx, contract.ActivitySendNotice, id)
	}
	var first error
	for _, f := range futures {
		if err := f.Get(ctx, nil); err != nil && first == nil {
			first = err
		}
	}
	return first
}
