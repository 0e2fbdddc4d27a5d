package apierr

import "net/http"

// idempotencyEntries are the conflicts of a request with its idempotency key.
var idempotencyEntries = []Entry{
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
}

// rateEntries are the errors of too many calls or streams at once.
var rateEntries = []Entry{
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
}

// creditEntries are the errors of a hold the balance, the job's cap or a
// spend limit does not cover.
var creditEntries = []Entry{
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
}
