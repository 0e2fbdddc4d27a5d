package contract

import "slices"

// The dated contract versions (Service-Version).
const (
	// FirstVersion is the first dated version. Its error object carries
	// required and balance (402 insufficient_credits, and job errors) in
	// ctx only.
	FirstVersion = "2026-06-30"
	// VersionCreditsAtTop is the spec's error object: required and balance
	// at its top level as well as in ctx.
	VersionCreditsAtTop = "2026-09-29"
	// CurrentVersion is the current dated contract version, the one the
	// spec describes: what a keyless call, a new account and its webhooks
	// get.
	CurrentVersion = VersionCreditsAtTop
)

// Version is one dated contract version: the small breaking change to
// shared behaviour it makes and the step that migrates a client to it. The
// changelog's "changed" entries are written from VersionHistory.
type Version struct {
	Date      string
	Change    string
	Migration string
}

// VersionHistory is the one list of dated versions, oldest first.
var VersionHistory = []Version{
	{Date: FirstVersion, Change: "The first dated contract version.", Migration: "Nothing to migrate."},
	{Date: VersionCreditsAtTop,
		Change: "The error object carries required and balance at its top level (402 insufficient_credits, " +
			"and job errors in answers, event streams and webhook bodies), as the spec's error object lists " +
			"them; ctx.required and ctx.balance still hold them. Under " + FirstVersion + " they are in ctx only.",
		Migration: "Nothing breaks: error.ctx.required and error.ctx.balance keep their values, and " +
			"error.required and error.balance may be read too. Send Service-Version: " + VersionCreditsAtTop +
			" or pin the account to it (taskplatform admin user pin-version)."},
}

// Versions lists every contract version a Service-Version header may name,
// oldest first: the dates of VersionHistory.
var Versions = func() []string {
	out := make([]string, len(VersionHistory))
	for i, v := range VersionHistory {
		out[i] = v.Date
	}
	return out
}()

// KnownVersion says whether v is a dated version of Versions.
func KnownVersion(v string) bool { return slices.Contains(Versions, v) }

// VersionOr is v when it is a known version, else CurrentVersion: an
// account pinned to no version, or to one no longer served, follows the
// current one.
func VersionOr(v string) string {
	if KnownVersion(v) {
		return v
	}
	return CurrentVersion
}

// CreditsAtTop says whether error objects under version v repeat required
// and balance at their top level: from VersionCreditsAtTop on, and under
// an empty or unknown version (the current one). The API's dated contract,
// the event stream and the webhook bodies all ask it.
func CreditsAtTop(v string) bool { return VersionOr(v) >= VersionCreditsAtTop }

// Limits is the limits object of GET /v1/meta. The API and the job code read
// their bounds from DefaultLimits, so what is served is what is enforced.
type Limits struct {
	Request        RequestLimits        `json:"request"`
	PreferWait     PreferWaitLimits     `json:"prefer_wait"`
	StartTimeout   StartTimeoutLimits   `json:"start_timeout"`
	Upload         UploadLimits         `json:"upload"`
	IdempotencyKey IdempotencyKeyLimits `json:"idempotency_key"`
	URLFetch       URLFetchLimits       `json:"url_fetch"`
	// EventStreams, APIKeys and WebhookEndpoints bound what one account
	// holds open or registered (beyond the spec, additive).
	EventStreams     EventStreamLimits     `json:"event_streams"`
	APIKeys          APIKeyLimits          `json:"api_keys"`
	WebhookEndpoints WebhookEndpointLimits `json:"webhook_endpoints"`
	// Batches bound POST /v1/batches (beyond the spec, additive).
	Batches BatchLimits `json:"batches"`
}

// BatchLimits bound one POST /v1/batches: at most MaxItems submissions in
// a body of at most MaxBodyBytes; more items answer 422 invalid_request
// naming items, a larger body 413 body_too_large.
type BatchLimits struct {
	MaxItems     int   `json:"max_items"`
	MaxBodyBytes int64 `json:"max_body_bytes"`
}

// EventStreamLimits bound the live event streams (GET
// /v1/jobs/{job_id}/events) open at once, counted across every API process:
// one more answers 429 too_many_streams. A stream ends after MaxSeconds
// (resume it with Last-Event-ID) and when its key is revoked or expires.
type EventStreamLimits struct {
	MaxPerKey     int `json:"max_per_key"`
	MaxPerAccount int `json:"max_per_account"`
	MaxSeconds    int `json:"max_seconds"`
}

// APIKeyLimits bound an account's active keys (neither revoked nor
// expired); creating one more answers 422 too_many_api_keys. Rolling a key
// is not refused: its successor replaces it.
type APIKeyLimits struct {
	MaxPerAccount int `json:"max_per_account"`
}

// WebhookEndpointLimits bound an account's registered webhook endpoints;
// one more answers 422 too_many_webhook_endpoints, and a second endpoint
// at the same url 422 webhook_endpoint_exists.
type WebhookEndpointLimits struct {
	MaxPerAccount int `json:"max_per_account"`
}

// RequestLimits bound a request body.
type RequestLimits struct {
	MaxBodyBytes int64 `json:"max_body_bytes"`
}

// PreferWaitLimits bound Prefer: wait=N; larger N is clipped.
type PreferWaitLimits struct {
	MaxSeconds int `json:"max_seconds"`
}

// StartTimeoutLimits bound X-Service-Start-Timeout; outside answers 422.
type StartTimeoutLimits struct {
	MinSeconds int `json:"min_seconds"`
	MaxSeconds int `json:"max_seconds"`
}

// UploadLimits bound POST /v1/files.
type UploadLimits struct {
	MaxBytes   int64    `json:"max_bytes"`
	MediaTypes []string `json:"media_types"`
}

// IdempotencyKeyLimits say how long an Idempotency-Key is remembered; nil
// means as long as its job.
type IdempotencyKeyLimits struct {
	TTLSeconds *int64 `json:"ttl_seconds"`
}

// URLFetchLimits bound fetches of caller-given URLs.
type URLFetchLimits struct {
	ConnectTimeoutSeconds int   `json:"connect_timeout_seconds"`
	ReadTimeoutSeconds    int   `json:"read_timeout_seconds"`
	MaxBytes              int64 `json:"max_bytes"`
	MaxRedirects          int   `json:"max_redirects"`
}

// Webhook is the webhook object of GET /v1/meta.
type Webhook struct {
	MaxAttempts int              `json:"max_attempts"`
	Signature   WebhookSignature `json:"signature"`
}

// WebhookSignature says how far a delivery's timestamp may be from the
// receiver's clock.
type WebhookSignature struct {
	TimestampWindowSeconds int `json:"timestamp_window_seconds"`
}

// Meta is the body of GET /v1/meta.
type Meta struct {
	Limits         Limits   `json:"limits"`
	Webhook        Webhook  `json:"webhook"`
	Versions       []string `json:"versions"`
	CurrentVersion string   `json:"current_version"`
}

// DefaultLimits are the service's limits.
func DefaultLimits() Limits {
	ttl := int64(24 * 60 * 60)
	return Limits{
		Request:      RequestLimits{MaxBodyBytes: 1 << 20},
		PreferWait:   PreferWaitLimits{MaxSeconds: 60},
		StartTimeout: StartTimeoutLimits{MinSeconds: 1, MaxSeconds: 3600},
		Upload: UploadLimits{MaxBytes: 20 << 20, MediaTypes: []string{
			"image/png", "image/jpeg", "image/webp", "image/gif", "image/bmp", "application/pdf",
		}},
		IdempotencyKey: IdempotencyKeyLimits{TTLSeconds: &ttl},
		URLFetch: URLFetchLimits{
			ConnectTimeoutSeconds: 10,
			ReadTimeoutSeconds:    30,
			MaxBytes:              20 << 20,
			MaxRedirects:          5,
		},
		EventStreams:     EventStreamLimits{MaxPerKey: 20, MaxPerAccount: 50, MaxSeconds: 3600},
		APIKeys:          APIKeyLimits{MaxPerAccount: 20},
		WebhookEndpoints: WebhookEndpointLimits{MaxPerAccount: 16},
		Batches:          BatchLimits{MaxItems: 1000, MaxBodyBytes: 16 << 20},
	}
}

// DefaultWebhook is the webhook delivery policy.
func DefaultWebhook() Webhook {
	return Webhook{MaxAttempts: 8, Signature: WebhookSignature{TimestampWindowSeconds: 300}}
}

// DefaultMeta is the body of GET /v1/meta.
func DefaultMeta() Meta {
	return Meta{
		Limits:         DefaultLimits(),
		Webhook:        DefaultWebhook(),
		Versions:       append([]string(nil), Versions...),
		CurrentVersion: CurrentVersion,
	}
}
