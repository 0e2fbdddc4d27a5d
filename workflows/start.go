package workflows

import (
	"strconv"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
)

// Search attributes of job workflows, registered on the namespace.
var (
	AttrTask    = temporal.NewSearchAttributeKeyKeyword("TpTask")
	AttrAccount = temporal.NewSearchAttributeKeyKeyword("TpAccountId")
	AttrOutcome = temporal.NewSearchAttributeKeyKeyword("TpOutcome")
)

// SearchAttributes lists the custom attributes to register.
var SearchAttributes = []temporal.SearchAttributeKeyKeyword{AttrTask, AttrAccount, AttrOutcome}

// StartOptions are the options a job workflow starts with on queue: the
// job id as workflow id (a retried start lands on the same workflow), its
// search attributes, and the summary and details the Temporal UI shows.
func StartOptions(in contract.JobInput, queue string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID: in.JobID, TaskQueue: queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			AttrTask.ValueSet(in.Task), AttrAccount.ValueSet(strconv.FormatUint(in.UserID, 10))),
		StaticSummary: in.Task + " for account " + strconv.FormatUint(in.UserID, 10),
		StaticDetails: "job " + in.JobID + " · key " + in.APIKeyID + " · request " + in.RequestID,
	}
}
