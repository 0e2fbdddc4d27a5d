package catalogue

import (
	"slices"

	"github.com/taskplatform/taskplatform/tasks"
)

// Concepts returns every concept: the families', then the service's, each
// with the runnable tasks that name it in Produces (produced_by) and Uses
// (used_by), in catalogue order.
func (c *Catalogue) Concepts() []tasks.Concept {
	out := append(c.reg.Concepts(), serviceConcepts()...)
	for i := range out {
		out[i].ProducedBy, out[i].UsedBy = []string{}, []string{}
		if out[i].Related == nil {
			out[i].Related = []string{}
		}
		for _, d := range c.reg.Runnable() {
			if slices.Contains(d.Produces, out[i].Name) {
				out[i].ProducedBy = append(out[i].ProducedBy, d.Name)
			}
			if slices.Contains(d.Uses, out[i].Name) {
				out[i].UsedBy = append(out[i].UsedBy, d.Name)
			}
		}
	}
	return out
}

// Concept returns one concept.
func (c *Catalogue) Concept(name string) (tasks.Concept, bool) {
	for _, x := range c.Concepts() {
		if x.Name == name {
			return x, true
		}
	}
	return tasks.Concept{}, false
}

// serviceConcepts are the concepts of no one family: task fields any task
// may have (seed, resolution, variants), credits, jobs and webhooks.
func serviceConcepts() []tasks.Concept {
	return []tasks.Concept{
		{
			Name: "seed", Short: "An integer that makes a task's choices repeatable.",
			Long: "Tasks with a seed are deterministic: the same input with the same seed gives the same bytes. A job of " +
				"several outputs draws output i with seed + i, so its outputs differ and each can be drawn again alone by " +
				"sending that seed with count 1.",
			Related: []string{"seamless_tile"},
		},
		{
			Name: "output_resolution", Short: "The pixel size of a delivered image (vocabulary resolution).",
			Long: "Raster tasks draw at a resolution from the resolution vocabulary. Larger tiles cost more credits per " +
				"output; the price list and the estimate give the figures per resolution.",
			Related: []string{"credit_hold", "seamless_tile"},
		},
		{
			Name: "task_variant", Short: "A field (kind or type) that chooses which other fields a task uses.",
			Long: "Some tasks do several related things chosen by one field, such as kind in pattern.generate. Fields " +
				"that only some variants use are marked in the schema; sending one with another variant answers 422 " +
				"field_not_supported naming it.",
			Related: []string{"seamless_tile"},
		},
		{
			Name: "credit_hold", Short: "Credits set aside when a job is accepted and settled when it ends.",
			Long: "Submitting holds the estimate: the price of one output times the outputs planned. When the job ends it " +
				"is charged only for delivered outputs and the rest is released. A hold the balance cannot cover answers 402 " +
				"insufficient_credits with required and balance.",
			Related: []string{"job", "output_resolution"},
		},
		{
			Name: "job", Short: "One run of a task: queued, running, then terminal with an outcome.",
			Long: "POST /v1/tasks/{name} starts a job and answers its job_id at once. Follow it by polling GET " +
				"/v1/jobs/{id}, waiting with Prefer: wait=N, or by webhook. Outputs are delivered one by one (progress.done " +
				"rises); the result lists the files.",
			Related: []string{"credit_hold", "webhook"},
		},
		{
			Name: "webhook", Short: "A signed HTTP callback the service sends for job events.",
			Long: "Webhooks deliver job events (vocabulary webhook_event) to an https address, signed with Ed25519; " +
				"verify with the keys at /.well-known/jwks.json and dedupe by the body id. Delivery is at least once, without " +
				"ordering.",
			Related: []string{"job"},
		},
	}
}
