package tasks

import (
	"slices"

	"github.com/taskplatform/taskplatform/apierr"
)

// Docs is a task page, served as the docs object of a Task.
type Docs struct {
	// Lead is the opening paragraph.
	Lead string `json:"lead"`
	// BuiltFor says what the task is for.
	BuiltFor []string `json:"built_for"`
	// WhatYouGet says what a job delivers.
	WhatYouGet []string `json:"what_you_get"`
	// Outputs says how many files a job delivers and in which order.
	Outputs DocsOutputs `json:"outputs"`
	// Specs are rows keyed by one of SpecKeys.
	Specs []SpecRow `json:"specs"`
	// Limitations are notes.
	Limitations []string `json:"limitations"`
	// Errors is every code a call of the task can answer.
	Errors []apierr.Code `json:"errors"`
	// Compares sets the task against neighbours; nil serialises as null.
	Compares []Compare `json:"compares"`
	// Related names tasks run before, after or beside this one.
	Related []Related `json:"related"`
	// Prompting is prompt-writing advice; nil when the task takes no prompt.
	Prompting *string `json:"prompting"`
}

// DocsOutputs is the outputs object of a task page.
type DocsOutputs struct {
	Count          string   `json:"count"`
	CountDependsOn []string `json:"count_depends_on"`
	Order          *string  `json:"order"`
	AbsentWhen     *string  `json:"absent_when"`
}

// SpecRow is one row of a task page's specs.
type SpecRow struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Compare is one row of a task page's compares.
type Compare struct {
	Task         string `json:"task"`
	UseThisWhen  string `json:"use_this_when"`
	UseOtherWhen string `json:"use_other_when"`
}

// Related is one row of a task page's related; Relation is before, after or
// sibling.
type Related struct {
	Task     string `json:"task"`
	Relation string `json:"relation"`
}

// SpecKeys are the keys a specs row may have.
var SpecKeys = []string{
	"input_formats", "input_count", "output_format", "output_resolution", "aspect_ratios",
	"outputs_per_job", "watermark", "commercial_use", "content_checks", "reproducibility",
}

// CallErrors are the codes every call of a runnable task can answer besides
// those of its input validation: authentication, transport, idempotency,
// credits, the job's own failures, result reads and the output warning.
var CallErrors = []apierr.Code{
	apierr.Unauthenticated, apierr.InvalidAPIKey, apierr.ScopeMissing,
	apierr.APIKeyNotAllowedHere, apierr.APIAccessNotIncluded, apierr.PermissionDenied,
	apierr.IdempotencyKeyReused, apierr.RequestInProgress, apierr.RateLimited,
	apierr.InsufficientCredits, apierr.InvalidRequest, apierr.APIKeyInQuery,
	apierr.MalformedRequest, apierr.BodyTooLarge, apierr.HeadersTooLarge, apierr.UnsupportedMediaType,
	apierr.UnsupportedVersion, apierr.InsecureTransport, apierr.StartTimeout,
	apierr.Cancelled, apierr.JobFailed, apierr.ResultNotReady, apierr.ProcessingFailed,
	apierr.Internal, apierr.ServiceUnavailable, apierr.OutputNotProduced,
}

// ErrorList is CallErrors plus a task's own codes, in the order of the error
// catalogue: the Errors of a task's Docs.
func ErrorList(extra ...apierr.Code) []apierr.Code {
	want := append(append([]apierr.Code(nil), CallErrors...), extra...)
	var out []apierr.Code
	for _, e := range apierr.Entries() {
		if slices.Contains(want, e.Code) {
			out = append(out, e.Code)
		}
	}
	return out
}
