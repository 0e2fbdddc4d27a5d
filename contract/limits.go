package contract

// CurrentVersion is the current dated contract version (Service-Version).
const CurrentVersion = "2026-09-29"

// Versions lists every contract version a Service-Version header may name,
// oldest first.
var Versions = []string{CurrentVersion}

// Limits is the limits object of GET /v1/meta. The API and the job code read
// their bounds from DefaultLimits, so what is served is what is enforced.
type Limits struct {
	Request        RequestLimits        `json:"request"`
	PreferWait     PreferWaitLimits     `json:"prefer_wait"`
	StartTimeout   StartTimeoutLimits   `json:"start_timeout"`
	Upload         UploadLimits         `json:"upload"`
	IdempotencyKey IdempotencyKeyLimits `json:"idempotency_key"`
	URLFetch       URLFetchLimits       `json:"url_fetch"`
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
		URLFetch:       URLFetchLimits{ConnectTimeoutSeconds: 10, ReadTimeoutSeconds: 30, MaxBytes: 20 << 20, MaxRedirects: 5},
	}
}

// DefaultWebhook is the webhook delivery policy.
func DefaultWebhook() Webhook {
	return Webhook{MaxAttempts: 8, Signature: WebhookSignature{TimestampWindowSeconds: 300}}
}

// DefaultMeta is the body of GET /v1/meta.
func DefaultMeta() Meta {
	return Meta{Limits: DefaultLimits(), Webhook: DefaultWebhook(), Versions: append([]string(nil), Versions...), CurrentVersion: CurrentVersion}
}
