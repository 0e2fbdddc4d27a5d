// Package apierr is the one error catalogue of the service: every error the
// API answers or a job ends with is built from an Entry defined here, and the
// same entries are served at GET /v1/errors.
package apierr

import "slices"

// Type is the category of an error (the error_type vocabulary).
type Type string

// The error types the service answers.
const (
	TypeInvalidRequest Type = "invalid_request"
	TypeAuthentication Type = "authentication"
	TypePermission     Type = "permission"
	TypeConflict       Type = "conflict"
	TypeNotFound       Type = "not_found"
	TypeCredits        Type = "credits"
	TypeInternal       Type = "internal"
	TypeRateLimited    Type = "rate_limited"
	TypeWarning        Type = "warning"
)

// Types lists every error type, in the order the vocabulary serves them.
var Types = []struct {
	Type        Type
	Description string
}{
	{TypeInvalidRequest, "The request cannot be processed as sent; fix the named field or header."},
	{TypeAuthentication, "No usable API key was sent."},
	{TypePermission, "The key, the plan or the route does not allow the call."},
	{TypeConflict, "The request clashes with the current state of a job or an idempotency key."},
	{TypeNotFound, "The address or the named resource does not exist, or no longer exists."},
	{TypeCredits, "The balance does not cover what the request needs."},
	{TypeInternal, "The service could not complete the work; retry when retryable is true."},
	{TypeRateLimited, "Too many calls in the current window, or too many streams open; wait Retry-After seconds."},
	{TypeWarning, "Not a failure: a note inside a job summary about something not produced as asked."},
}

// Code is a stable snake_case error identifier.
type Code string

// Entry is one row of the catalogue.
type Entry struct {
	Code      Code   `json:"code"`
	Type      Type   `json:"type"`
	Status    int    `json:"status"`
	Retryable bool   `json:"retryable"`
	Meaning   string `json:"meaning"`
	Fix       string `json:"fix"`
}

// The codes of the catalogue. Each has exactly one Entry in entries.
const (
	Unauthenticated      Code = "unauthenticated"
	InvalidAPIKey        Code = "invalid_api_key"
	ScopeMissing         Code = "scope_missing"
	SessionRequired      Code = "session_required"
	APIKeyNotAllowedHere Code = "api_key_not_allowed_here"
	APIAccessNotIncluded Code = "api_access_not_included"
	PermissionDenied     Code = "permission_denied"
	NotFound             Code = "not_found"
	TaskNotFound         Code = "task_not_found"
	JobNotFound          Code = "job_not_found"
	BatchNotFound        Code = "batch_not_found"
	FileNotFound         Code = "file_not_found"
	TaskRemoved          Code = "task_removed"
	IdempotencyKeyReused Code = "idempotency_key_reused"
	RequestInProgress    Code = "request_in_progress"
	RateLimited          Code = "rate_limited"
	TooManyStreams       Code = "too_many_streams"
	InsufficientCredits  Code = "insufficient_credits"
	MaxCreditsExceeded   Code = "max_credits_exceeded"
	SpendLimitReached    Code = "spend_limit_reached"
	BatchRefused         Code = "batch_refused"
	InvalidRequest       Code = "invalid_request"
	FieldNotAccepted     Code = "field_not_accepted"
	FieldNotSupported    Code = "field_not_supported"
	InvalidOption        Code = "invalid_option"
	RequestRefused       Code = "request_refused"
	PromptRequired       Code = "prompt_required"
	TooManyReferences    Code = "too_many_references"
	APIKeyInQuery        Code = "api_key_in_query"
	MalformedRequest     Code = "malformed_request"
	BodyTooLarge         Code = "body_too_large"
	HeadersTooLarge      Code = "headers_too_large"
	JobAlreadyEnded      Code = "job_already_ended"
	MoodboardNotReady    Code = "moodboard_not_ready"
	BrandKitLookNotReady Code = "brand_kit_look_not_ready"
	MoodboardNeedsImages Code = "moodboard_needs_images"
	TooManyImages        Code = "too_many_images"
	TooManyItems         Code = "too_many_items"
	TooManyColours       Code = "too_many_colours"
	InvalidColour        Code = "invalid_colour"
	ImagesRequired       Code = "images_required"
	ImageNotPublic       Code = "image_not_public"
	MoodboardRequired    Code = "moodboard_required"
	LookNotInMoodboard   Code = "look_not_in_moodboard"
	NameRequired         Code = "name_required"
	InvalidWeight        Code = "invalid_weight"
	FileNotDeletable     Code = "file_not_deletable"
	UnsupportedMediaType Code = "unsupported_media_type"
	FileTooLarge         Code = "file_too_large"
	TooManyAPIKeys       Code = "too_many_api_keys"
	TooManyEndpoints     Code = "too_many_webhook_endpoints"
	EndpointExists       Code = "webhook_endpoint_exists"
	TooManyOutputs       Code = "too_many_outputs"
	ImageNotFromShoot    Code = "image_not_from_shoot"
	UnsupportedVersion   Code = "unsupported_version"
	MethodNotAllowed     Code = "method_not_allowed"
	StartTimeout         Code = "start_timeout"
	Cancelled            Code = "cancelled"
	JobFailed            Code = "job_failed"
	ResultNotReady       Code = "result_not_ready"
	ProcessingFailed     Code = "processing_failed"
	ContentRefused       Code = "content_refused"
	CapacityBusy         Code = "capacity_busy"
	Internal             Code = "internal"
	ServiceUnavailable   Code = "service_unavailable"
	InsecureTransport    Code = "insecure_transport"
	OutputNotProduced    Code = "output_not_produced"
	ColourAdjusted       Code = "colour_adjusted"
	LowResolution        Code = "low_resolution"
	ArtworkCropped       Code = "artwork_cropped"
	FineLines            Code = "fine_lines"
	TileNotSeamless      Code = "tile_not_seamless"
	GIFReduced           Code = "gif_reduced"
	CutoutUncertain      Code = "cutout_uncertain"
)

// entries is the catalogue, in the order GET /v1/errors serves it: each
// area's entries are defined in the file named after it (access.go,
// limits.go, requests.go, jobs.go).
var entries = slices.Concat(
	accessEntries,
	notFoundEntries,
	idempotencyEntries,
	rateEntries,
	creditEntries,
	requestEntries,
	inputEntries,
	protocolEntries,
	jobEntries,
	warningEntries,
)

var byCode = func() map[Code]Entry {
	m := make(map[Code]Entry, len(entries))
	for _, e := range entries {
		if _, dup := m[e.Code]; dup {
			panic("apierr: duplicate catalogue code " + string(e.Code))
		}
		m[e.Code] = e
	}
	return m
}()

// Entries returns every catalogue entry, in catalogue order.
func Entries() []Entry { return append([]Entry(nil), entries...) }

// Lookup returns the entry of a code.
func Lookup(c Code) (Entry, bool) {
	e, ok := byCode[c]
	return e, ok
}

// DocsURL is the documentation link of a code.
func DocsURL(c Code) string { return "/v1/errors#" + string(c) }
