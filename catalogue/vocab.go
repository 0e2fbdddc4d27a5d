package catalogue

import (
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// Vocabularies returns every vocabulary: the service's events and error
// types, the registry's (shared ones, then each family's), then the
// service's task, credit and job vocabularies. Each carries the used_in rows
// of the task fields marked x-vocab.
func (c *Catalogue) Vocabularies() []tasks.Vocabulary {
	uses := map[string][]tasks.UsedIn{}
	for _, d := range c.reg.Runnable() {
		for _, f := range d.VocabFields() {
			uses[f.Vocab] = append(uses[f.Vocab], tasks.UsedIn{Where: d.Name, Field: f.Field, Direction: f.Direction})
		}
	}
	out := append(append(leadVocabs(), c.reg.Vocabularies()...), tailVocabs()...)
	for i := range out {
		out[i].UsedIn = append(slices.Clip(out[i].UsedIn), uses[out[i].Name]...)
	}
	return out
}

// Vocabulary returns one vocabulary with its used_in rows.
func (c *Catalogue) Vocabulary(name string) (tasks.Vocabulary, bool) {
	for _, v := range c.Vocabularies() {
		if v.Name == name {
			return v, true
		}
	}
	return tasks.Vocabulary{}, false
}

// VocabValues returns the values of a vocabulary, for enums outside tasks
// (for example the webhook events an endpoint subscribes to); nil when no
// vocabulary has the name.
func (c *Catalogue) VocabValues(name string) []string {
	v, ok := c.Vocabulary(name)
	if !ok {
		return nil
	}
	return v.Enum()
}

// ServiceVocabValues returns the values of one of the service's own
// vocabularies (webhook_event, stream_event, error_type, task_category,
// credit_type, spend_period, spend_scope, job_lifecycle, job_outcome), which
// no registry changes; nil for any other name.
func ServiceVocabValues(name string) []string { return Empty().VocabValues(name) }

// leadVocabs are the service's vocabularies served before the tasks': job
// events and error types.
func leadVocabs() []tasks.Vocabulary {
	return []tasks.Vocabulary{
		{
			Name: "webhook_event", Description: "The kinds of event a webhook delivers.",
			Values: []tasks.VocabValue{
				{
					Value:       contract.EventStarted,
					Label:       "Job started",
					Description: "The job left the queue; sent once per job.",
				},
				{
					Value:       contract.EventProgress,
					Label:       "Job progress",
					Description: "One more output was delivered (progress.done rose).",
				},
				{
					Value:       contract.EventSucceeded,
					Label:       "Job succeeded",
					Description: "The job finished and its files are ready; the body carries the result.",
					Default:     true,
				},
				{
					Value:       contract.EventFailed,
					Label:       "Job failed",
					Description: "The job failed; the body carries error.",
					Default:     true,
				},
				{
					Value:       contract.EventCancelled,
					Label:       "Job cancelled",
					Description: "The job was cancelled; the body carries error with code cancelled.",
					Default:     true,
				},
				{
					Value: contract.EventSpendThreshold,
					Label: "Spend threshold",
					Description: "An account-level event: the day's or month's spend of a spend limit (the account's or a " +
						"key's) reached 50, 80 or 100 % of it; sent once per limit, period and threshold. Subscribe to " +
						"it by name: it is not a default.",
				},
				{
					Value: contract.EventBatchCompleted,
					Label: "Batch completed",
					Description: "Every job of a batch (POST /v1/batches) has ended; sent once per batch, to the " +
						"endpoints subscribed to it and the batch's webhook_url. The body carries the batch's counts " +
						"and credits (BatchEvent).",
				},
				{
					Value:       contract.EventPing,
					Label:       "Ping",
					Description: "A signed test event sent to an endpoint on request.",
				},
			},
			Concept: new("webhook"),
			UsedIn: []tasks.UsedIn{
				{Where: "webhook delivery body", Field: "event", Direction: "output"},
				{Where: "webhook endpoint", Field: "events", Direction: "input"},
			},
		},
		{
			Name: "stream_event",
			Description: "The kinds of event a job's event stream (GET /v1/jobs/{job_id}/events) sends beside " +
				"webhook_event's job events: states of the job, never delivered to a webhook.",
			Values: []tasks.VocabValue{
				{
					Value: contract.EventQueue,
					Label: "Job queue",
					Description: "While the job is queued: where it stands (queue.position, queue.eta_seconds), sent when " +
						"the stream opens and when either moves materially.",
				},
			},
			UsedIn: []tasks.UsedIn{{Where: "job event stream", Field: "event", Direction: "output"}},
		},
		{
			Name: "error_type", Description: "The category of an error; branch on it for codes you do not know.",
			Values: errorTypeValues(),
			UsedIn: []tasks.UsedIn{
				{Where: "error object", Field: "error.type", Direction: "output"},
				{Where: "response header", Field: "X-Service-Error-Type", Direction: "output"},
				{Where: "GET /v1/errors", Field: "items[].type", Direction: "output"},
			},
		},
	}
}

// tailVocabs are the service's vocabularies served after the tasks': task
// categories, credit types and the job's lifecycle and outcome.
func tailVocabs() []tasks.Vocabulary {
	return []tasks.Vocabulary{
		{
			Name: "task_category", Description: "The category of a task.",
			Values: []tasks.VocabValue{
				{
					Value:       tasks.CategoryDesignGeneration,
					Label:       "Design generation",
					Description: "Makes new designs: patterns, palettes, artwork.",
				},
				{Value: tasks.CategoryImageEditing, Label: "Image editing", Description: "Changes existing images."},
				{
					Value:       tasks.CategoryPhotoshoots,
					Label:       "Photoshoots",
					Description: "Puts products on models and in scenes.",
				},
				{Value: tasks.CategoryVideo, Label: "Video", Description: "Makes or edits moving images."},
				{
					Value:       tasks.CategoryProductionPrep,
					Label:       "Production prep",
					Description: "Readies designs for making: separations, repeats, sizes.",
				},
				{
					Value:       tasks.CategoryRecordsLibraries,
					Label:       "Records and libraries",
					Description: "Keeps records: moodboards, fabrics, brand kits.",
				},
			},
			UsedIn: []tasks.UsedIn{{Where: "Task", Field: "category", Direction: "output"}},
		},
		{
			Name: "credit_type", Description: "The kinds of credit a balance holds.",
			Values: []tasks.VocabValue{
				{
					Value:       contract.CreditService,
					Label:       "Service credits",
					Description: "Spent by tasks.",
					Default:     true,
				},
				{Value: contract.CreditModel, Label: "Model credits", Description: "Spent on model training."},
			},
			Default: new(contract.CreditService), Concept: new("credit_hold"),
			UsedIn: []tasks.UsedIn{
				{Where: "POST /v1/tasks/{name}/estimate", Field: "credit_type", Direction: "output"},
				{Where: "response header", Field: "X-Service-Credit-Type", Direction: "output"},
				{Where: "GET /v1/pricing", Field: "items[].credit_type", Direction: "output"},
				{Where: "GET /v1/account/balance", Field: "balances[].credit_type", Direction: "output"},
			},
		},
		{
			Name: "spend_period", Description: "The period a spend limit counts over, in UTC.",
			Values: []tasks.VocabValue{
				{Value: contract.SpendDay, Label: "Day", Description: "From 00:00 UTC to the next 00:00 UTC."},
				{Value: contract.SpendMonth, Label: "Month", Description: "From the first of the month, 00:00 UTC."},
			},
			UsedIn: []tasks.UsedIn{
				{Where: "error object", Field: "ctx.period", Direction: "output"},
				{Where: "webhook delivery body", Field: "period", Direction: "output"},
			},
		},
		{
			Name: "spend_scope", Description: "What a spend limit counts.",
			Values: []tasks.VocabValue{
				{Value: contract.SpendAccount, Label: "Account",
					Description: "Every job of the account, whichever key or the app started it."},
				{Value: contract.SpendKey, Label: "API key", Description: "The jobs one API key started."},
			},
			UsedIn: []tasks.UsedIn{
				{Where: "error object", Field: "ctx.scope", Direction: "output"},
				{Where: "webhook delivery body", Field: "scope", Direction: "output"},
			},
		},
		{
			Name: "job_lifecycle", Description: "Where a job is in its life.",
			Values: []tasks.VocabValue{
				{Value: contract.LifecycleQueued, Label: "Queued", Description: "Accepted and waiting to start."},
				{Value: contract.LifecycleRunning, Label: "Running", Description: "Delivering outputs."},
				{Value: contract.LifecycleTerminal, Label: "Terminal", Description: "Ended; outcome says how."},
			},
			Concept: new("job"),
			UsedIn: []tasks.UsedIn{
				{Where: "Job", Field: "lifecycle", Direction: "output"},
				{Where: "webhook delivery body", Field: "lifecycle", Direction: "output"},
			},
		},
		{
			Name: "job_outcome", Description: "How a terminal job ended; null until then.",
			Values: []tasks.VocabValue{
				{Value: contract.OutcomeSucceeded, Label: "Succeeded", Description: "Files are ready at the result."},
				{Value: contract.OutcomeFailed, Label: "Failed", Description: "The job has an error and no result."},
				{
					Value:       contract.OutcomeCancelled,
					Label:       "Cancelled",
					Description: "The job was cancelled; error code cancelled.",
				},
			},
			Concept: new("job"),
			UsedIn: []tasks.UsedIn{
				{Where: "Job", Field: "outcome", Direction: "output"},
				{Where: "webhook delivery body", Field: "outcome", Direction: "output"},
			},
		},
	}
}

func errorTypeValues() []tasks.VocabValue {
	out := make([]tasks.VocabValue, len(apierr.Types))
	for i, t := range apierr.Types {
		label := strings.ToUpper(string(t.Type[:1])) + strings.ReplaceAll(string(t.Type[1:]), "_", " ")
		out[i] = tasks.VocabValue{Value: string(t.Type), Label: label, Description: t.Description}
	}
	return out
}
