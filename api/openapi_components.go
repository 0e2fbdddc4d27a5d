package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/apierr"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/wire"
)

// components are the Go types the documents name, by component name; every
// other type is written in place.
var components = []struct {
	name string
	t    reflect.Type
}{
	{"ErrorObject", reflect.TypeFor[apierr.Error]()},
	{"Job", reflect.TypeFor[wire.Job]()},
	{"Progress", reflect.TypeFor[wire.Progress]()},
	{"JobQueue", reflect.TypeFor[wire.Queue]()},
	{"JobResult", reflect.TypeFor[wire.Result]()},
	{"JobEvent", reflect.TypeFor[wire.Event]()},
	{"SpendThresholdEvent", reflect.TypeFor[wire.SpendThresholdEvent]()},
	{"ResultFile", reflect.TypeFor[wire.File]()},
	{"Summary", reflect.TypeFor[contract.Summary]()},
	{"Warning", reflect.TypeFor[contract.Warning]()},
	{"Estimate", reflect.TypeFor[estimateView]()},
	{"Task", reflect.TypeFor[catalog.TaskView]()},
	{"TaskDocs", reflect.TypeFor[tasks.Docs]()},
	{"Example", reflect.TypeFor[exampleView]()},
	{"ExampleFile", reflect.TypeFor[exampleFileView]()},
	{"Vocabulary", reflect.TypeFor[tasks.Vocabulary]()},
	{"Concept", reflect.TypeFor[tasks.Concept]()},
	{"Recipe", reflect.TypeFor[tasks.Recipe]()},
	{"ErrorEntry", reflect.TypeFor[errorView]()},
	{"PriceEntry", reflect.TypeFor[catalog.PriceEntry]()},
	{"ChangelogEntry", reflect.TypeFor[catalog.ChangelogEntry]()},
	{"Meta", reflect.TypeFor[metaView]()},
	{"RouteScope", reflect.TypeFor[RouteScope]()},
	{"FileRecord", reflect.TypeFor[uploadRecord]()},
	{"ArtRecord", reflect.TypeFor[fileRecord]()},
	{"RefItem", reflect.TypeFor[refItem]()},
	{"Balance", reflect.TypeFor[models.Balance]()},
	{"RateLimit", reflect.TypeFor[middleware.RateLimitRow]()},
	{"UsageRow", reflect.TypeFor[models.UsageRow]()},
	{"RequestLogEntry", reflect.TypeFor[requestView]()},
	{"JWKS", reflect.TypeFor[signer.JWKS]()},
	{"ManifestJWS", reflect.TypeFor[signer.JWS]()},
	{"JobManifest", reflect.TypeFor[wire.Manifest]()},
	{"ManifestFile", reflect.TypeFor[wire.ManifestFile]()},
	{"Batch", reflect.TypeFor[wire.Batch]()},
	{"BatchJob", reflect.TypeFor[wire.BatchJob]()},
	{"BatchEvent", reflect.TypeFor[wire.BatchEvent]()},
}

// digest is a nullable lowercase hex SHA-256, described by what it is of.
func digest(of string) oa {
	return openapi.Nullable(
		openapi.Describe(oa{"type": "string", "pattern": "^[0-9a-f]{64}$"}, "The lowercase hex SHA-256 "+of+"."),
	)
}

// thresholds are contract.SpendThresholds as schema values.
func thresholds() []any {
	out := make([]any, len(contract.SpendThresholds))
	for i, p := range contract.SpendThresholds {
		out[i] = p
	}
	return out
}

// componentNames finds a type's component name.
var componentNames = sync.OnceValue(func() map[reflect.Type]string {
	m := make(map[reflect.Type]string, len(components))
	for _, c := range components {
		m[c.t] = c.name
	}
	return m
})

// typeSchemas are the schemas of types whose JSON reflection cannot read.
var typeSchemas = sync.OnceValue(func() map[reflect.Type]oa {
	codes := make([]apierr.Code, 0, len(apierr.Entries()))
	for _, e := range apierr.Entries() {
		codes = append(codes, e.Code)
	}
	types := make([]apierr.Type, len(apierr.Types))
	for i, t := range apierr.Types {
		types[i] = t.Type
	}
	return map[reflect.Type]oa{
		reflect.TypeFor[time.Time]():       openapi.DateTime(),
		reflect.TypeFor[json.RawMessage](): {},
		reflect.TypeFor[apierr.Code](): openapi.Describe(
			openapi.Enum(codes),
			"A code of the error catalogue (GET /v1/errors).",
		),
		reflect.TypeFor[apierr.Type](): openapi.Describe(openapi.Enum(types), "Vocabulary error_type."),
		reflect.TypeFor[catalog.ChangeKind](): openapi.Describe(
			openapi.Enum(catalog.ChangeKinds),
			"What the entry records.",
		),
	}
})

// lifecycle and outcome are a job's lifecycle and its outcome, null until
// the job ends.
func lifecycle() oa {
	return openapi.Describe(openapi.Enum(contract.Lifecycles), "Vocabulary job_lifecycle.")
}
func outcome() oa {
	return openapi.Nullable(
		openapi.Describe(openapi.Enum(contract.Outcomes), "Vocabulary job_outcome; null until the job ends."),
	)
}

// vocab is a string schema taking the values of one of the service's own
// vocabularies.
func vocab(name string) oa {
	return openapi.Describe(openapi.Enum(catalog.ServiceVocabValues(name)), "Vocabulary "+name+".")
}

// fieldSchemas override the schema of one field (by its JSON name) of a
// struct type: enums the Go type does not name, raw JSON, slices that may be
// null.
var fieldSchemas = sync.OnceValue(func() map[reflect.Type]oa {
	creditType := oa{"credit_type": vocab("credit_type")}
	var warnings []string
	for _, e := range apierr.Entries() {
		if e.Type == apierr.TypeWarning {
			warnings = append(warnings, string(e.Code))
		}
	}
	var pers []string
	for _, r := range (&middleware.Limiter{}).Rows() {
		pers = append(pers, r.Per)
	}
	accesses := []middleware.Access{middleware.AccessPublic, middleware.AccessKey, middleware.AccessSession}
	schemaDoc := openapi.FreeObject("A JSON Schema, draft 2020-12.")
	return map[reflect.Type]oa{
		reflect.TypeFor[wire.Job](): {
			"api_key_id": openapi.Describe(openapi.Nullable(openapi.Str()),
				"The key that started the job (key_…); null for a job started in the app."),
			"lifecycle": lifecycle(),
			"outcome":   outcome(),
			"error":     openapi.Nullable(openapi.Ref("ErrorObject")),
			"queue": openapi.Describe(openapi.Nullable(openapi.Ref("JobQueue")),
				"Where the job stands while it is queued (beyond the spec); null once it has started or ended."),
		},
		reflect.TypeFor[wire.Queue](): {
			"position": openapi.Describe(oa{"type": "integer", "minimum": 1},
				"The job's place among the account's queued jobs: the jobs a workflow admitted, in admit order, "+
					"then those not admitted yet (a batch's job before its start reaches it); 1 starts next."),
			"eta_seconds": openapi.Describe(
				openapi.Nullable(oa{"type": "integer", "minimum": 0}),
				"Estimated seconds until the job starts: ceil((queued jobs of every account ahead + 1) / jobs running now) "+
					"× the mean run time of the last 50 jobs that ended. An estimate, not a promise: see the README. "+
					"Null while nothing runs or no job has ended to measure from.",
			),
		},
		reflect.TypeFor[wire.Event](): {
			"event": openapi.Describe(openapi.Enum(slices.Concat(contract.JobEvents, contract.StreamEvents)),
				"Vocabulary webhook_event; a job's event stream also sends stream_event's ("+
					strings.Join(contract.StreamEvents, ", ")+"), never a webhook."),
			"lifecycle": lifecycle(),
			"outcome":   outcome(),
			"error":     openapi.Ref("ErrorObject"),
			"queue": openapi.Describe(
				openapi.Ref("JobQueue"),
				"On job.queue only: where the queued job stands now, as its read "+
					"says.",
			),
		},
		reflect.TypeFor[panelapi.SpendLimitView](): {
			"id":    openapi.Describe(openapi.Str(), "limit_…"),
			"scope": vocab("spend_scope"),
			"api_key_id": openapi.Describe(
				openapi.Nullable(openapi.Str()),
				"The key whose limit it is (key_…); null for the account's.",
			),
			"period":      vocab("spend_period"),
			"credit_type": vocab("credit_type"),
			"spent":       openapi.Describe(openapi.Integer(), "What the current period's jobs hold or were charged."),
			"resets_at":   openapi.Describe(openapi.DateTime(), "When the current period ends."),
		},
		reflect.TypeFor[wire.SpendThresholdEvent](): {
			"event": openapi.Describe(
				openapi.Enum([]string{contract.EventSpendThreshold}),
				"Vocabulary webhook_event.",
			),
			"threshold": openapi.Describe(oa{"type": "integer", "enum": thresholds()},
				"The percentage of the limit the spend reached; 100 also when the limit first refuses a hold in "+
					"the period."),
			"scope":       vocab("spend_scope"),
			"period":      vocab("spend_period"),
			"credit_type": vocab("credit_type"),
			"api_key_id": openapi.Describe(
				openapi.Nullable(openapi.Str()),
				"The key whose limit it is (key_…); null for the account's.",
			),
			"limit": openapi.Describe(openapi.Integer(), "The limit's credits per period."),
			"spent": openapi.Describe(
				openapi.Integer(),
				"What the period's jobs hold or were charged once the job named by job_id "+
					"was admitted, or when its hold was refused (then below limit).",
			),
			"job_id": openapi.Describe(
				openapi.Str(),
				"The job whose hold reached the threshold, or the one the limit refused (no "+
					"job is made for it unless its handle was already answered).",
			),
		},
		reflect.TypeFor[apierr.Error](): {"input": openapi.Describe(oa{"type": "null"}, "Reserved; null.")},
		reflect.TypeFor[apierr.Ctx](): {
			"limit": openapi.Describe(openapi.Integer(), "spend_limit_reached: the limit's credits per period."),
			"spent": openapi.Describe(
				openapi.Integer(),
				"spend_limit_reached: what the period's jobs hold or were charged.",
			),
			"period": openapi.Describe(vocab("spend_period"), "spend_limit_reached: the limit's period (UTC)."),
			"scope": openapi.Describe(
				vocab("spend_scope"),
				"spend_limit_reached: an account's or a key's limit.",
			),
			"credit_type": vocab("credit_type"),
			"resets_at": openapi.Describe(
				openapi.DateTime(),
				"spend_limit_reached: when the period ends and its spend is 0 again.",
			),
			"items": openapi.Describe(openapi.ArrayOf(openapi.Object(oa{"index": openapi.Integer(),
				"error": openapi.Ref("ErrorObject")}, "index", "error")),
				"batch_refused: every refused item of the batch, by its index in items, with the error its submit "+
					"would answer."),
		},
		reflect.TypeFor[wire.Batch](): {
			"mode": openapi.Enum([]string{models.BatchAll, models.BatchPartial}),
			"status": openapi.Describe(
				openapi.Enum([]string{wire.BatchStarting, wire.BatchRunning, wire.BatchCompleted}),
				"starting: credits held, some jobs' workflows still being started; running: every job started, "+
					"some not ended; completed: every job ended (batch.completed was sent).",
			),
			"completed_at": openapi.Describe(
				openapi.Nullable(openapi.DateTime()),
				"When the last job ended; null until then.",
			),
			"refused": openapi.Describe(
				openapi.ArrayOf(
					openapi.Object(
						oa{"index": openapi.Integer(), "error": openapi.Ref("ErrorObject")},
						"index",
						"error",
					),
				),
				"The items refused in mode partial, by index, with the error each submit would answer.",
			),
			"jobs": openapi.Describe(
				openapi.ArrayOf(openapi.Ref("BatchJob")),
				"Every job of the batch, in item order.",
			),
		},
		reflect.TypeFor[wire.BatchJob](): {"lifecycle": lifecycle(), "outcome": outcome(),
			"index": openapi.Describe(openapi.Integer(), "The item's index in the request's items.")},
		reflect.TypeFor[wire.BatchCredit](): {"credit_type": vocab("credit_type")},
		reflect.TypeFor[wire.BatchOutputs](): {
			"total": openapi.Describe(
				openapi.Integer(),
				"Outputs planned: each started job's plan, each queued job's hold over its "+
					"price.",
			),
		},
		reflect.TypeFor[wire.BatchEvent](): {
			"event": openapi.Describe(
				openapi.Enum([]string{contract.EventBatchCompleted}),
				"Vocabulary webhook_event.",
			),
		},
		reflect.TypeFor[wire.Credits](): {"credit_type": vocab("credit_type"),
			"held": openapi.Describe(
				openapi.Integer(),
				"Credits the submit held; 0 while a late admit has not held them yet.",
			),
			"charged": openapi.Nullable(
				openapi.Describe(
					openapi.Integer(),
					"Credits charged once the job ended: price × outputs delivered, never above the hold.",
				),
			)},
		reflect.TypeFor[wire.File](): {
			"data": openapi.Nullable(
				openapi.FreeObject("Valid against the task's outputSchema; null when the task reports none."),
			),
			"sha256": digest(
				"of the file's bytes, as the job's manifest signs it; null for a file stored before digests " +
					"were kept",
			),
			"bytes": openapi.Describe(openapi.Integer(), "The file's size in bytes."),
		},
		reflect.TypeFor[uploadRecord](): {
			"name": openapi.Describe(openapi.Nullable(oa{"type": "string", "maxLength": maxFileName}),
				"An upload's file name as its multipart part sent it: its last path element, without control "+
					"characters; the download's Content-Disposition gives it back. Null for a registered URL and "+
					"an upload sent without one."),
		},
		reflect.TypeFor[wire.ManifestFile](): {
			"sha256": digest("of the output's bytes; null for an output stored before digests were kept"),
		},
		reflect.TypeFor[wire.Manifest](): {
			"input_sha256": openapi.Describe(oa{"type": "string", "pattern": "^[0-9a-f]{64}$"},
				"The lowercase hex SHA-256 of the job's input as stored: the validated JSON with defaults applied."),
			"outcome": outcome(),
		},
		reflect.TypeFor[signer.JWS](): {
			"payload": oa{"type": "string", "contentEncoding": "base64url", "contentMediaType": "application/json",
				"contentSchema": openapi.Ref("JobManifest"), "description": "Base64url of the JobManifest's JSON."},
			"protected": openapi.Describe(
				openapi.Str(),
				`Base64url of {"alg":"EdDSA","kid":…,"typ":"tp-manifest+jws"}.`,
			),
			"signature": openapi.Describe(
				openapi.Str(),
				"Base64url of the Ed25519 signature of protected + \".\" + payload (RFC 8037).",
			),
		},
		reflect.TypeFor[wire.Result](): {"summary": openapi.Ref("Summary")},
		reflect.TypeFor[contract.Warning](): {
			"code": openapi.Describe(
				openapi.Enum(warnings),
				"A catalogued code of type warning; show an unknown one by its message.",
			),
		},
		reflect.TypeFor[estimateView]():       creditType,
		reflect.TypeFor[catalog.PriceEntry](): creditType,
		reflect.TypeFor[models.Balance]():     creditType,
		reflect.TypeFor[models.UsageRow]():    creditType,
		reflect.TypeFor[catalog.TaskView](): {
			"category":     openapi.Nullable(vocab("task_category")),
			"inputSchema":  schemaDoc,
			"outputSchema": openapi.Nullable(schemaDoc),
		},
		reflect.TypeFor[tasks.SpecRow](): {"key": openapi.Enum(tasks.SpecKeys)},
		reflect.TypeFor[tasks.RecipeStep](): {
			"body": openapi.FreeObject("The request body; valid input of task when task is named."),
		},
		reflect.TypeFor[exampleRequest](): {"body": openapi.FreeObject("The task input the example sends.")},
		reflect.TypeFor[exampleFileView](): {
			"data": openapi.Nullable(openapi.FreeObject("The file's data, valid against the task's outputSchema.")),
		},
		reflect.TypeFor[middleware.RateLimitRow](): {"per": openapi.Enum(pers)},
		reflect.TypeFor[requestView](): {
			"route": openapi.Describe(openapi.Nullable(openapi.Str()),
				"The route the path matched, written /v1/jobs/{job_id}; null when it matched none."),
		},
		reflect.TypeFor[refItem](): {
			"url": openapi.Describe(openapi.Str(),
				"The preview image (a small copy when one exists); an empty string when the row has no image yet."),
		},
		reflect.TypeFor[recordView](): {
			"kind": openapi.Describe(openapi.Str(), "The record's kind."),
			"name": openapi.Describe(
				openapi.Nullable(openapi.Str()),
				"The record's name; null for a kind whose records have none.",
			),
			"url": openapi.Describe(
				openapi.Str(),
				"The preview image: the record's first delivered image, a curated record's own; "+
					"an empty string until there is one, as a reference item's.",
			),
			"status": openapi.Enum(
				[]string{models.RecordAnalysing, models.RecordCreating, models.RecordReady, models.RecordFailed},
			),
			"analysis": openapi.Describe(
				openapi.Nullable(openapi.FreeObject("")),
				"The record's analysis once ready; null otherwise.",
			),
		},
		reflect.TypeFor[RouteScope](): {
			"auth":  openapi.Enum(accesses),
			"scope": openapi.Enum(models.AllScopes),
		},
	}
})

// metaView is the body of GET /v1/meta: the service's limits and policies
// and what every route needs from its caller.
type metaView struct {
	contract.Meta
	Scopes []RouteScope `json:"scopes"`
}

// componentSchemas are the component schemas of a document: every named
// type, the error envelope and the metrics row.
func componentSchemas() oa {
	out := oa{
		"Error":      openapi.Object(oa{"error": openapi.Ref("ErrorObject")}, "error"),
		"MetricsRow": metricsRowSchema(),
	}
	for _, c := range components {
		out[c.name] = openapi.ReadSchema(c.t)
	}
	return out
}

// metricsRowSchema is one row of GET /v1/account/metrics: the group's
// field (named by group_by) and the figures of models.MetricsRow.
func metricsRowSchema() oa {
	s := openapi.ReadSchema(reflect.TypeFor[models.MetricsRow]())
	props := s["properties"].(oa)
	for _, field := range groupFields {
		props[field] = openapi.Describe(
			openapi.Nullable(openapi.Str()),
			"The row's group, present when group_by names it: the day, task, key id (null for jobs started in the app) or "+
				"error code.",
		)
	}
	return s
}
