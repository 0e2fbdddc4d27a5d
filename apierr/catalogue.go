// Package apierr is the one error catalogue of the service: every error the
// API answers or a job ends with is built from an Entry defined here, and the
// same entries are served at GET /v1/errors.
package apierr

import "net/http"

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
)

var entries = []Entry{
	{
		Unauthenticated,
		TypeAuthentication,
		http.StatusUnauthorized,
		false,
		"No API key was sent to an endpoint that needs one.",
		"Send Authorization: Key <API_KEY>.",
	},
	{
		InvalidAPIKey,
		TypeAuthentication,
		http.StatusUnauthorized,
		false,
		"The API key is malformed, revoked or expired.",
		"Check the key, or create a new one in the panel.",
	},
	{
		ScopeMissing,
		TypePermission,
		http.StatusForbidden,
		false,
		"The API key lacks the scope this endpoint needs.",
		"Use a key with the scope named in the message.",
	},
	{
		SessionRequired,
		TypePermission,
		http.StatusForbidden,
		false,
		"The route needs a signed-in panel session; API keys are refused.",
		"Do this in the account panel.",
	},
	{
		APIKeyNotAllowedHere,
		TypePermission,
		http.StatusForbidden,
		false,
		"An API key was sent with an Origin header, as from a browser.",
		"Call the API from a server, never from a browser.",
	},
	{
		APIAccessNotIncluded,
		TypePermission,
		http.StatusForbidden,
		false,
		"The account's plan does not include API access.",
		"Change to a plan with API access.",
	},
	{
		PermissionDenied,
		TypePermission,
		http.StatusForbidden,
		false,
		"The account's plan does not allow this task.",
		"Change plan or use a task the plan allows.",
	},
	{
		NotFound,
		TypeNotFound,
		http.StatusNotFound,
		false,
		"There is nothing at this address.",
		"Check the path against the API reference.",
	},
	{TaskNotFound, TypeNotFound, http.StatusNotFound, false, "No task has this name.", "List tasks at GET /v1/tasks."},
	{
		JobNotFound,
		TypeNotFound,
		http.StatusNotFound,
		false,
		"No job with this id belongs to the account.",
		"Check the job id returned by submit.",
	},
	{
		BatchNotFound,
		TypeNotFound,
		http.StatusNotFound,
		false,
		"No batch with this id belongs to the account.",
		"Check the batch id returned by POST /v1/batches.",
	},
	{
		FileNotFound,
		TypeNotFound,
		http.StatusNotFound,
		false,
		"No file with this handle belongs to the account.",
		"Check the handle; deleted files answer 404.",
	},
	{
		TaskRemoved,
		TypeNotFound,
		http.StatusGone,
		false,
		"The task was removed from the catalogue.",
		"Use the replacement named in the changelog.",
	},
	{
		IdempotencyKeyReused,
		TypeConflict,
		http.StatusConflict,
		false,
		"The Idempotency-Key was already used with a different body.",
		"Use a new key for a different request.",
	},
	{
		RequestInProgress,
		TypeConflict,
		http.StatusConflict,
		true,
		"The first request with this Idempotency-Key is still being processed.",
		"Retry the same request after a moment.",
	},
	{
		RateLimited,
		TypeRateLimited,
		http.StatusTooManyRequests,
		true,
		"The key's request rate was exceeded.",
		"Wait Retry-After seconds.",
	},
	{
		TooManyStreams,
		TypeRateLimited,
		http.StatusTooManyRequests,
		true,
		"The key or the account has as many event streams open as limits.event_streams of GET /v1/meta allows.",
		"Close a stream (or let one end), then retry after Retry-After seconds.",
	},
	{
		InsufficientCredits,
		TypeCredits,
		http.StatusPaymentRequired,
		false,
		"The balance does not cover the credits the job must hold.",
		"Add credits or ask for fewer outputs; required and balance give the amounts.",
	},
	{
		MaxCreditsExceeded,
		TypeCredits,
		http.StatusPaymentRequired,
		false,
		"The job would hold more credits than the submit's X-Service-Max-Credits allows; nothing was held.",
		"Raise X-Service-Max-Credits to ctx.required (the estimate's credits) or ask for fewer outputs.",
	},
	{
		SpendLimitReached,
		TypeCredits,
		http.StatusPaymentRequired,
		false,
		"The job's hold would take the spend of a day or month past a limit set on the account or the key; " +
			"nothing was held.",
		"Wait until ctx.resets_at, ask for fewer outputs (ctx.limit - ctx.spent credits are left), or raise the " +
			"limit named by ctx.scope and ctx.period in the panel or with taskplatform admin limit set.",
	},
	{
		BatchRefused,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"One or more items of a batch were refused as a submit would refuse them; nothing was held or started.",
		"Fix the items ctx.items names by index (each with the error its submit would answer), or send " +
			"mode: partial to start the valid items and be told of the refused ones.",
	},
	{
		InvalidRequest,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A field is missing, of the wrong type or out of range.",
		"Fix the field named in field.",
	},
	{
		FieldNotAccepted,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The input has a field the task does not take, or one the server fills itself.",
		"Remove the field named in field.",
	},
	{
		FieldNotSupported,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The field is known but the chosen kind or type does not use it.",
		"Remove the field or choose a kind that uses it.",
	},
	{
		InvalidOption,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The value is not among the field's options.",
		"Use a value listed in the task's input schema.",
	},
	{
		RequestRefused,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The request is well formed but the task cannot work with it.",
		"Change the input as the message explains.",
	},
	{
		PromptRequired,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A prompt is required.",
		"Send a non-empty prompt.",
	},
	{
		TooManyReferences,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"More reference images than maxItems.",
		"Send fewer references.",
	},
	{
		APIKeyInQuery,
		TypeInvalidRequest,
		http.StatusBadRequest,
		false,
		"An API key was sent in the URL, where it may have leaked.",
		"Roll or revoke the key; send keys only in headers.",
	},
	{
		MalformedRequest,
		TypeInvalidRequest,
		http.StatusBadRequest,
		false,
		"A header or the body could not be read.",
		"Send valid JSON and well-formed headers.",
	},
	{
		BodyTooLarge,
		TypeInvalidRequest,
		http.StatusRequestEntityTooLarge,
		false,
		"The body is over limits.request.max_body_bytes.",
		"Send a smaller body; upload large files with POST /v1/files.",
	},
	{
		HeadersTooLarge,
		TypeInvalidRequest,
		http.StatusRequestHeaderFieldsTooLarge,
		false,
		"The request line and headers are over the size the service reads.",
		"Send fewer or shorter headers; keep data in the body.",
	},
	{
		JobAlreadyEnded,
		TypeInvalidRequest,
		http.StatusBadRequest,
		false,
		"The job has already ended and cannot be cancelled.",
		"Read the job; nothing to cancel.",
	},
	{
		MoodboardNotReady,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A named moodboard is still being analysed, or its analysis failed.",
		"Read the moodboard at GET /v1/files/{ref}; send again when its status is ready, or create it again if it failed.",
	},
	{
		BrandKitLookNotReady,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A look the brand kit keeps is not analysed yet.",
		"Read the brand kit at GET /v1/files/{ref}; send again when its status is ready.",
	},
	{
		MoodboardNeedsImages,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"Fewer images than the minItems of images.",
		"Send at least minItems images.",
	},
	{
		TooManyImages,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"More images than maxItems.",
		"Send fewer images.",
	},
	{
		TooManyItems,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"More items of one type than allowed.",
		"Send fewer items of that type.",
	},
	{
		TooManyColours,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"More colours than maxItems.",
		"Send fewer colours.",
	},
	{
		InvalidColour,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A colour is not written #RRGGBB.",
		"Write colours as # and six hexadecimal digits.",
	},
	{
		ImagesRequired,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"images needs at least one image.",
		"Send at least one image.",
	},
	{
		ImageNotPublic,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The image address is not publicly reachable.",
		"Use a public https address or upload the file.",
	},
	{
		MoodboardRequired,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"moodboards needs at least one moodboard:<id> of the account's or the curated library's.",
		"Send moodboard handles listed at GET /v1/refs/moodboard.",
	},
	{
		LookNotInMoodboard,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A look URL is not a look of one of the named moodboards.",
		"Send looks[].url values read from the named moodboards' analysis.",
	},
	{
		NameRequired,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"name is empty or missing.",
		"Send a non-empty name.",
	},
	{
		InvalidWeight,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"facts.weight_gsm is not a whole number of grams per square metre within the schema's range.",
		"Send a whole number between the schema's minimum and maximum.",
	},
	{
		FileNotDeletable,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"Only art: handles (files a job produced) can be deleted.",
		"Delete only art: handles.",
	},
	{
		UnsupportedMediaType,
		TypeInvalidRequest,
		http.StatusUnsupportedMediaType,
		false,
		"The body is not JSON (or multipart for uploads), or the upload's type is not accepted.",
		"Send Content-Type: application/json.",
	},
	{
		FileTooLarge,
		TypeInvalidRequest,
		http.StatusRequestEntityTooLarge,
		false,
		"The upload is over limits.upload.max_bytes.",
		"Upload a smaller file.",
	},
	{
		TooManyAPIKeys,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The account has as many active API keys as limits.api_keys.max_per_account of GET /v1/meta allows.",
		"Revoke a key you no longer use, or roll one instead of adding another.",
	},
	{
		TooManyEndpoints,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The account has as many webhook endpoints as limits.webhook_endpoints.max_per_account of GET /v1/meta allows.",
		"Remove an endpoint you no longer use; one endpoint can receive every event.",
	},
	{
		EndpointExists,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The account already has a webhook endpoint at this url.",
		"Change that endpoint's events instead of adding another.",
	},
	{
		TooManyOutputs,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"A shoot would make more images than its task allows.",
		"Send fewer poses or a lower count_per_pose; the task's docs give the most outputs.",
	},
	{
		ImageNotFromShoot,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"An image is not of the caller's shoots, or the images come from two shoots.",
		"Send art: handles of one photoshoot of the account, listed at GET /v1/files/photoshoot:<id>.",
	},
	{
		UnsupportedVersion,
		TypeInvalidRequest,
		http.StatusBadRequest,
		false,
		"Service-Version is not a known contract version.",
		"Send a version listed at GET /v1/meta, or none.",
	},
	{
		MethodNotAllowed,
		TypeInvalidRequest,
		http.StatusMethodNotAllowed,
		false,
		"The path exists but not with this method.",
		"Check the method against the API reference.",
	},
	{
		InsecureTransport,
		TypeInvalidRequest,
		http.StatusBadRequest,
		false,
		"The request came over plain HTTP; only HTTPS is served.",
		"Call the https:// address.",
	},
	{
		StartTimeout,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"The job could not start before its start deadline.",
		"Submit again, or send a longer X-Service-Start-Timeout.",
	},
	{
		Cancelled,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job was cancelled.",
		"Submit a new job if you still need the result.",
	},
	{
		JobFailed,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job failed; it has no result.",
		"Read the job's error for the reason.",
	},
	{
		ResultNotReady,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job has not finished yet.",
		"Poll the job, wait with Prefer: wait=N, or use a webhook.",
	},
	{
		ProcessingFailed,
		TypeInternal,
		http.StatusUnprocessableEntity,
		false,
		"The task could not produce its outputs.",
		"Check the input; submit again with other settings.",
	},
	{
		ContentRefused,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The prompt or an image was refused by the content checks.",
		"Change the prompt or the images.",
	},
	{
		CapacityBusy,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"The job could not get capacity in time.",
		"Submit again later.",
	},
	{
		Internal,
		TypeInternal,
		http.StatusInternalServerError,
		true,
		"The service failed on its side.",
		"Retry; quote the request_id if it persists.",
	},
	{
		ServiceUnavailable,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"A dependency of the service did not answer in time; for a submit the job id is kept.",
		"Retry the same request with the same Idempotency-Key.",
	},
	{
		OutputNotProduced,
		TypeWarning,
		0,
		false,
		"An output that was asked for was not produced; it was not charged.",
		"Nothing to fix; submit again for the missing outputs if needed.",
	},
	{
		ColourAdjusted,
		TypeWarning,
		0,
		false,
		"A colour was too close to another and was adjusted to stay visible.",
		"Pick colours further apart to keep them exact.",
	},
	{
		LowResolution,
		TypeWarning,
		0,
		false,
		"An image was enlarged past its resolution; the message gives the effective dpi it prints at.",
		"Send a larger image or ask for a lower dpi.",
	},
	{
		ArtworkCropped,
		TypeWarning,
		0,
		false,
		"Part of the artwork was cut, as asked (fit cover); the message gives how much of its width and height.",
		"Leave fit at its default (contain) to keep all of the artwork.",
	},
	{
		FineLines,
		TypeWarning,
		0,
		false,
		"A film has lines thinner than a screen holds; the message names the ink, the width in px and mm and the limit.",
		"Thicken the lines, or print larger (width_mm) so they reach the limit.",
	},
	{
		TileNotSeamless,
		TypeWarning,
		0,
		false,
		"The tile does not repeat seamlessly: its opposite edges differ, so the loop shows a seam; " +
			"the message says by how much.",
		"Send a seamless tile (pattern.generate makes them), or send mirror true to mirror it into one.",
	},
	{
		GIFReduced,
		TypeWarning,
		0,
		false,
		"A GIF would have passed the size its task's docs give, so it was made at a lower frame rate or with fewer " +
			"colours; the message says which, its size, and whether it is still over.",
		"Ask for format mp4 (a fraction of the size at full quality), a smaller size or a shorter loop.",
	},
}

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
