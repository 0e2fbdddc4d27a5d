package apierr

import "net/http"

// accessEntries are the errors of a call without a usable key, or one the key,
// the plan or the route does not allow.
var accessEntries = []Entry{
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
}

// notFoundEntries are the errors of an address or a named resource that does
// not exist, or no longer exists.
var notFoundEntries = []Entry{
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
}
