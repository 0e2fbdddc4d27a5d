package engines

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the operator's engine configuration, the file TP_ENGINES names
// (YAML, or JSON when the name ends in .json): the engines, the built-in
// tasks whose steps run on one of them, and the tasks it declares.
type Config struct {
	// Engines are the model servers, by the name routes and tasks use.
	Engines map[string]EngineConfig `json:"engines" yaml:"engines"`
	// Routes put a built-in task's steps on an engine, by task name.
	// Removing a route puts them back on the built-in engine.
	Routes map[string]Binding `json:"routes" yaml:"routes"`
	// Tasks are new tasks, defined without Go.
	Tasks []TaskConfig `json:"tasks" yaml:"tasks"`
}

// EngineConfig is one model server.
type EngineConfig struct {
	// Protocol is the protocol it speaks: cog.
	Protocol string `json:"protocol" yaml:"protocol"`
	// URL is its base address (http://gpu-1:5000). It is trusted: the
	// address rules that guard every other outbound request do not apply
	// to it, nor to output URLs on the same origin.
	URL string `json:"url" yaml:"url"`
	// URLs are the replicas of one model, in place of URL
	// ([http://gpu-1:5000, http://gpu-2:5000]), each trusted as URL is:
	// predictions spread over them by id, every attempt of a step on the
	// same one unless it is down (its GET /health-check does not answer,
	// or answers SETUP_FAILED, DEFUNCT or UNHEALTHY).
	URLs []string `json:"urls" yaml:"urls"`
	// Mode is sync (one request held open until the prediction ends; the
	// default without WebhookListen) or async (Prefer: respond-async, the
	// prediction's end reported by the engine's webhook to WebhookListen;
	// the default with it). Cog serves no GET /predictions/{id}: a webhook
	// is the only way it reports an async prediction.
	Mode string `json:"mode" yaml:"mode"`
	// WebhookListen is the address (host:port) where each worker process
	// listens for the engine's webhooks in async mode, opened at the
	// process's first prediction: 0.0.0.0:5001, or 127.0.0.1:0 for a free
	// port on loopback. One port per engine and per worker process.
	WebhookListen string `json:"webhook_listen" yaml:"webhook_listen"`
	// WebhookURL is the base address the engine reaches that listener at
	// (http://worker-1:5001); empty means http:// and the address
	// listened on, which must then name a host (not 0.0.0.0).
	WebhookURL string `json:"webhook_url" yaml:"webhook_url"`
	// UploadURL is where the engine stores its outputs in async mode: the
	// address its --upload-url names (https://store.internal/upload/).
	// Outputs under it are trusted like the engine's own URL (http on a
	// private network included). Without it Cog answers an async
	// prediction's files as paths on its own disk, so an async engine
	// without an upload store holds each request open as in sync mode,
	// where Cog answers files as data URIs.
	UploadURL string `json:"upload_url" yaml:"upload_url"`
	// Inputs is how a caller's file mapped to the model ("$image" of a
	// file-reference field) reaches it: data_uri (the default) sends its
	// bytes in the prediction's input; url sends a signed URL of the
	// service's copy, for that one file, expiring with the step.
	Inputs string `json:"inputs" yaml:"inputs"`
	// InputBaseURL is the service's address as the model server reaches it,
	// for inputs: url (http://api.internal:8080); empty means the public
	// files base (TP_FILES_BASE_URL).
	InputBaseURL string `json:"input_base_url" yaml:"input_base_url"`
	// Concurrency is how many predictions each replica runs at once (1
	// when zero: a Cog server runs one at a time unless built for more).
	// The engine's capacity, replicas × concurrency, is shared by every
	// worker process: no more predictions are in flight at once.
	Concurrency int `json:"concurrency" yaml:"concurrency"`
	// Wait is how long a step waits for the engine to take its prediction
	// while it is busy with another client's, or not answering (a Go
	// duration; DefaultWait when empty). Waiting is not a failed attempt.
	Wait string `json:"wait" yaml:"wait"`
	// Setup is how long a step waits for a replica that is loading its
	// model (health STARTING, predictions answered 409 or 503) to take its
	// prediction (a Go duration; DefaultSetup when empty).
	Setup string `json:"setup" yaml:"setup"`
	// Timeout is how long one prediction may run (a Go duration;
	// DefaultTimeout when empty). A step may take Timeout and the longer
	// of Wait and Setup before Temporal times it out.
	Timeout string `json:"timeout" yaml:"timeout"`
	// QueueWait is how long a step may wait in the engine's queue for a
	// free slot before its job fails capacity_busy (a Go duration;
	// DefaultQueueWait when empty). A job's start deadline
	// (X-Service-Start-Timeout) is shorter when the caller sets it so: its
	// first steps then fail it start_timeout.
	QueueWait string `json:"queue_wait" yaml:"queue_wait"`
	// QueueLimit is how many jobs may wait for the engine's capacity (its
	// slots all taken) before a new job routed to it fails at once
	// capacity_busy, its hold released (0: no limit, the jobs wait up to
	// QueueWait). A job counts as waiting while it is queued: none of its
	// steps has started.
	QueueLimit int `json:"queue_limit" yaml:"queue_limit"`
	// MaxBytes bounds an output file (DefaultMaxBytes when zero).
	MaxBytes int64 `json:"max_bytes" yaml:"max_bytes"`
	// Refusals are texts of the model's error that mean it refused the
	// content (its safety checker), matched case-insensitively: such a
	// failure ends the job content_refused.
	Refusals []string `json:"refusals" yaml:"refusals"`
}

// Binding is how a task's steps run on an engine.
type Binding struct {
	// Engine names one of Config.Engines.
	Engine string `json:"engine" yaml:"engine"`
	// Input is the model's input, mapped from the task's (see Mapping).
	Input Mapping `json:"input" yaml:"input"`
	// Meta is each output's data (valid against the task's outputSchema),
	// mapped from the task's input; empty means {engine, index}.
	Meta Mapping `json:"meta" yaml:"meta"`
	// MediaTypes are the types an output may have (DefaultMediaTypes when
	// empty); anything else fails the output.
	MediaTypes []string `json:"media_types" yaml:"media_types"`
	// CapacityBusy lets an engine that stays overloaded through a step's
	// retries fail the job capacity_busy (else the output is not produced).
	CapacityBusy bool `json:"capacity_busy" yaml:"capacity_busy"`
	// FilesPerPrediction is how many files each prediction answers, for a
	// model whose output is a list of files (Cog's List[Path]): a whole
	// number, or "$field" of an integer input field. Each file is an
	// output of its own, planned, held and charged as such, in order; a
	// job's outputs are its predictions times this. Absent means one file,
	// and a model that answers a list is then refused at start-up (that
	// route or task only). A prediction that answers fewer files delivers
	// those, the rest not produced and not charged; one that answers more
	// fails its outputs (none delivered or charged), as the declaration is
	// wrong.
	FilesPerPrediction any `json:"files_per_prediction" yaml:"files_per_prediction"`
	// Routing is how a route shares its task with the built-in engine
	// (routing.go): a fallback, or the jobs with a field.
	Routing `json:",inline" yaml:",inline"`
}

// TaskConfig declares a task.
type TaskConfig struct {
	Name        string `json:"name" yaml:"name"`
	Category    string `json:"category" yaml:"category"`
	Title       string `json:"title" yaml:"title"`
	Description string `json:"description" yaml:"description"`
	// Unit names what one output is (image when empty).
	Unit string     `json:"unit" yaml:"unit"`
	Docs DocsConfig `json:"docs" yaml:"docs"`
	// InputSchema is a draft 2020-12 object schema with
	// additionalProperties false; $schema is added when absent.
	InputSchema map[string]any `json:"input_schema" yaml:"input_schema"`
	// OutputSchema is each output's data; empty means {engine, index}.
	OutputSchema map[string]any `json:"output_schema" yaml:"output_schema"`
	// PricePerOutput is the service credits one delivered output costs.
	PricePerOutput int64         `json:"price_per_output" yaml:"price_per_output"`
	Outputs        OutputsConfig `json:"outputs" yaml:"outputs"`
	// Examples are real requests. The catalogue lists them without files:
	// a public read never runs a prediction (ExampleOutputsServed).
	Examples []ExampleConfig `json:"examples" yaml:"examples"`
	Binding  `json:",inline" yaml:",inline"`
}

// DocsConfig is a declared task's page; the rest (outputs, specs, errors)
// is written from the declaration.
type DocsConfig struct {
	Lead        string   `json:"lead" yaml:"lead"`
	BuiltFor    []string `json:"built_for" yaml:"built_for"`
	WhatYouGet  []string `json:"what_you_get" yaml:"what_you_get"`
	Limitations []string `json:"limitations" yaml:"limitations"`
	Prompting   string   `json:"prompting" yaml:"prompting"`
}

// OutputsConfig is a declared task's output count rule: Count predictions,
// or as many as the integer input field CountField says; each answers
// Binding.FilesPerPrediction files (one when absent), each an output.
type OutputsConfig struct {
	Count      int    `json:"count" yaml:"count"`
	CountField string `json:"count_field" yaml:"count_field"`
	// Phase names what a job does, shown in progress.phase ("generating"
	// when empty).
	Phase string `json:"phase" yaml:"phase"`
}

// ExampleConfig is one example request.
type ExampleConfig struct {
	Name        string         `json:"name" yaml:"name"`
	Title       string         `json:"title" yaml:"title"`
	Description string         `json:"description" yaml:"description"`
	Input       map[string]any `json:"input" yaml:"input"`
}

// Load reads the configuration file at path: JSON when its name ends in
// .json, YAML otherwise. Unknown keys are errors.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("engines: %w", err)
	}
	var c Config
	if strings.EqualFold(filepath.Ext(path), ".json") {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		err = dec.Decode(&c)
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err = dec.Decode(&c); errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("engines: %s: %w", path, err)
	}
	return &c, nil
}

// Limits are an engine's time limits as the job workflow applies them.
type Limits struct {
	// Step is how long one step may run on the engine: its prediction's
	// timeout and the longer of its wait and setup allowances.
	Step time.Duration
	// Queue is how long a step may wait for a free slot in the engine's
	// queue before the job fails capacity_busy.
	Queue time.Duration
	// QueueLimit is how many jobs may wait for a free slot before a new
	// one fails capacity_busy at once (0: no limit).
	QueueLimit int
}

// The defaults of an engine's time limits.
const (
	// DefaultSetup is how long a step waits for a replica loading its model.
	DefaultSetup = 5 * time.Minute
	// DefaultTimeout is how long one prediction may run: the built-in
	// steps' timeout.
	DefaultTimeout = 10 * time.Minute
	// DefaultQueueWait is how long a step waits for a slot in the
	// engine's queue.
	DefaultQueueWait = 10 * time.Minute
)

// limits reads the engine's time limits, with its setup and wait allowances.
func (c EngineConfig) limits(setup, wait time.Duration) (Limits, error) {
	timeout, err := duration(c.Timeout, DefaultTimeout)
	if err != nil {
		return Limits{}, fmt.Errorf("timeout: %w", err)
	}
	queue, err := duration(c.QueueWait, DefaultQueueWait)
	if err != nil {
		return Limits{}, fmt.Errorf("queue_wait: %w", err)
	}
	if c.QueueLimit < 0 {
		return Limits{}, fmt.Errorf("queue_limit %d is negative", c.QueueLimit)
	}
	return Limits{Step: timeout + max(setup, wait), Queue: queue, QueueLimit: c.QueueLimit}, nil
}
