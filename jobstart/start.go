// Package jobstart starts a job's workflow: its id, options and search
// attributes, and the admit sent with its start (update-with-start). The
// submit, the batch start and the workers' sweeps start jobs with it; the
// job workflow (workflows) records its outcome in AttrOutcome.
package jobstart

import (
	"context"
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
// search attributes, the summary and details the Temporal UI shows, and its
// priority (contract.JobPriority), which its activities inherit.
func StartOptions(in contract.JobInput, queue string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID: in.JobID, TaskQueue: queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			AttrTask.ValueSet(in.Task), AttrAccount.ValueSet(strconv.FormatUint(in.UserID, 10))),
		StaticSummary: in.Task + " for account " + strconv.FormatUint(in.UserID, 10),
		StaticDetails: "job " + in.JobID + " · key " + in.APIKeyID + " · request " + in.RequestID,
		Priority:      TemporalPriority(contract.JobPriority(in)),
	}
}

// Admitter is the part of a Temporal client that sends a job's admit.
type Admitter interface {
	NewWithStartWorkflowOperation(options client.StartWorkflowOptions, workflow any,
		args ...any) client.WithStartWorkflowOperation
	UpdateWithStartWorkflow(ctx context.Context,
		options client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error)
}

// SendAdmit sends job in's admit update with the start of its workflow on
// queue (update-with-start), and waits for stage. Sending it again is
// safe: the workflow id is the job id (an open workflow is used, a closed
// one refused with WorkflowExecutionAlreadyStarted) and the update id is
// fixed, so every send lands on the same admit.
func SendAdmit(ctx context.Context, c Admitter, in contract.JobInput, queue string,
	stage client.WorkflowUpdateStage) (client.WorkflowUpdateHandle, error) {
	return c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: c.NewWithStartWorkflowOperation(StartOptions(in, queue), contract.JobWorkflow, in),
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: contract.AdmitUpdateID, UpdateName: contract.UpdateAdmit,
			WaitForStage: stage},
	})
}

// TemporalPriority is p as Temporal's start options take it.
func TemporalPriority(p contract.Priority) temporal.Priority {
	return temporal.Priority{PriorityKey: p.Level, FairnessKey: p.FairnessKey, FairnessWeight: p.Weight}
}
