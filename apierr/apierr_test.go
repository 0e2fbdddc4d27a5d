package apierr_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// TestSpecCodes holds the catalogue to the statuses, types and retry rules
// the spec names for its codes (Authentication's failure table, Errors,
// Idempotency, States and transitions).
func TestSpecCodes(t *testing.T) {
	tests := []struct {
		code      apierr.Code
		status    int
		typ       apierr.Type
		retryable bool
	}{
		{apierr.Unauthenticated, http.StatusUnauthorized, apierr.TypeAuthentication, false},
		{apierr.InvalidAPIKey, http.StatusUnauthorized, apierr.TypeAuthentication, false},
		{apierr.ScopeMissing, http.StatusForbidden, apierr.TypePermission, false},
		{apierr.SessionRequired, http.StatusForbidden, apierr.TypePermission, false},
		{apierr.APIKeyNotAllowedHere, http.StatusForbidden, apierr.TypePermission, false},
		{apierr.APIAccessNotIncluded, http.StatusForbidden, apierr.TypePermission, false},
		{apierr.PermissionDenied, http.StatusForbidden, apierr.TypePermission, false},
		{apierr.APIKeyInQuery, http.StatusBadRequest, apierr.TypeInvalidRequest, false},
		{apierr.IdempotencyKeyReused, http.StatusConflict, apierr.TypeConflict, false},
		{apierr.RequestInProgress, http.StatusConflict, apierr.TypeConflict, true},
		{apierr.InsufficientCredits, http.StatusPaymentRequired, apierr.TypeCredits, false},
		{apierr.TaskRemoved, http.StatusGone, apierr.TypeNotFound, false},
		{apierr.JobAlreadyEnded, http.StatusBadRequest, apierr.TypeInvalidRequest, false},
		{apierr.RateLimited, http.StatusTooManyRequests, apierr.TypeRateLimited, true},
		{apierr.StartTimeout, http.StatusServiceUnavailable, apierr.TypeInternal, true},
		{apierr.CapacityBusy, http.StatusServiceUnavailable, apierr.TypeInternal, true},
		{apierr.Cancelled, http.StatusConflict, apierr.TypeConflict, false},
		{apierr.ProcessingFailed, http.StatusUnprocessableEntity, apierr.TypeInternal, false},
		{apierr.ContentRefused, http.StatusUnprocessableEntity, apierr.TypeInvalidRequest, false},
		{apierr.JobFailed, http.StatusConflict, apierr.TypeConflict, false},
		{apierr.ResultNotReady, http.StatusConflict, apierr.TypeConflict, false},
		{apierr.Internal, http.StatusInternalServerError, apierr.TypeInternal, true},
		{apierr.OutputNotProduced, 0, apierr.TypeWarning, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.code), func(t *testing.T) {
			en, ok := apierr.Lookup(tt.code)
			require.True(t, ok, "catalogued")
			require.Equal(t, tt.status, en.Status)
			require.Equal(t, tt.typ, en.Type)
			require.Equal(t, tt.retryable, en.Retryable)
		})
	}
}

// TestCatalogueIsConsistent checks every entry: one entry per code, a
// known type, a meaning and a fix, an HTTP error status (warnings: none),
// and every 429/503 retryable.
func TestCatalogueIsConsistent(t *testing.T) {
	types := map[apierr.Type]bool{}
	for _, ty := range apierr.Types {
		require.NotEmpty(t, ty.Description, ty.Type)
		types[ty.Type] = true
	}
	seen := map[apierr.Code]bool{}
	for _, en := range apierr.Entries() {
		require.False(t, seen[en.Code], "%s listed twice", en.Code)
		seen[en.Code] = true
		require.Regexp(t, `^[a-z][a-z0-9_]*[a-z0-9]$`, string(en.Code), "snake_case")
		require.True(t, types[en.Type], "%s: unknown type %s", en.Code, en.Type)
		require.NotEmpty(t, en.Meaning, en.Code)
		require.NotEmpty(t, en.Fix, en.Code)
		if en.Type == apierr.TypeWarning {
			require.Zero(t, en.Status, "%s: a warning is never answered", en.Code)
			require.False(t, en.Retryable, en.Code)
			continue
		}
		require.GreaterOrEqual(t, en.Status, 400, en.Code)
		require.Less(t, en.Status, 600, en.Code)
		if en.Status == http.StatusTooManyRequests || en.Status == http.StatusServiceUnavailable {
			require.True(t, en.Retryable, "%s answers %d: retryable", en.Code, en.Status)
		}
	}

	list := apierr.Entries()
	list[0].Code = "changed"
	require.NotEqual(t, apierr.Code("changed"), apierr.Entries()[0].Code, "Entries returns a copy")
	_, ok := apierr.Lookup("no_such_code")
	require.False(t, ok)
}

func TestNew(t *testing.T) {
	tests := []struct {
		name       string
		err        *apierr.Error
		code       apierr.Code
		message    string
		status     int
		retryAfter *int64
	}{
		{name: "catalogue meaning when no message", err: apierr.New(apierr.JobFailed, ""), code: apierr.JobFailed,
			message: "The job failed; it has no result.", status: http.StatusConflict},
		{
			name:    "own message",
			err:     apierr.New(apierr.InvalidRequest, "count must be at most 8."),
			code:    apierr.InvalidRequest,
			message: "count must be at most 8.",
			status:  http.StatusUnprocessableEntity,
		},
		{
			name:    "formatted message",
			err:     apierr.Newf(apierr.TooManyColours, "at most %d colours", 6),
			code:    apierr.TooManyColours,
			message: "at most 6 colours",
			status:  http.StatusUnprocessableEntity,
		},
		{name: "unknown code is internal", err: apierr.New("no_such_code", "secret detail"), code: apierr.Internal,
			message: "secret detail", status: http.StatusInternalServerError},
		{name: "429 names its wait", err: apierr.New(apierr.RateLimited, ""), code: apierr.RateLimited,
			status: http.StatusTooManyRequests, retryAfter: ptr(apierr.DefaultRetryAfter)},
		{name: "503 names its wait", err: apierr.New(apierr.ServiceUnavailable, ""), code: apierr.ServiceUnavailable,
			status: http.StatusServiceUnavailable, retryAfter: ptr(apierr.DefaultRetryAfter)},
		{
			name:       "a given wait is kept",
			err:        apierr.New(apierr.RateLimited, "").WithRetryAfter(17),
			code:       apierr.RateLimited,
			status:     http.StatusTooManyRequests,
			retryAfter: ptr(17),
		},
		{
			name:       "a wait of zero becomes the default",
			err:        apierr.New(apierr.RateLimited, "").WithRetryAfter(0).WithDefaultRetryAfter(),
			code:       apierr.RateLimited,
			status:     http.StatusTooManyRequests,
			retryAfter: ptr(apierr.DefaultRetryAfter),
		},
		{
			name:       "a job error answered as 503 names its wait",
			err:        apierr.New(apierr.Internal, "").WithStatus(http.StatusServiceUnavailable),
			code:       apierr.Internal,
			status:     http.StatusServiceUnavailable,
			retryAfter: ptr(apierr.DefaultRetryAfter),
		},
		{
			name:   "other statuses name no wait",
			err:    apierr.New(apierr.Internal, "").WithStatus(http.StatusUnprocessableEntity),
			code:   apierr.Internal,
			status: http.StatusUnprocessableEntity,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			en, ok := apierr.Lookup(tt.code)
			require.True(t, ok)
			require.Equal(t, tt.code, tt.err.Code)
			require.Equal(t, en.Type, tt.err.Type)
			require.Equal(t, en.Retryable, tt.err.Retryable)
			require.Equal(t, "/v1/errors#"+string(tt.code), tt.err.Docs)
			require.Equal(t, tt.status, tt.err.Status)
			if tt.message != "" {
				require.Equal(t, tt.message, tt.err.Message)
			} else {
				require.Equal(t, en.Meaning, tt.err.Message)
			}
			require.Equal(t, tt.retryAfter, tt.err.Ctx.RetryAfter)
			require.Equal(t, string(tt.err.Code)+": "+tt.err.Message, tt.err.Error())
		})
	}
}

// TestWireShape is the error object a client reads: every field of the
// spec's Error object, null where it has no value, the status kept out.
func TestWireShape(t *testing.T) {
	en, _ := apierr.Lookup(apierr.InsufficientCredits)
	e := apierr.New(apierr.InsufficientCredits, "").WithCredits(12, 5).WithField("count").WithJob("j_1")
	raw, err := json.Marshal(apierr.Envelope{Error: e})
	require.NoError(t, err)
	var got map[string]map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, map[string]any{
		"code": "insufficient_credits", "type": "credits", "message": en.Meaning,
		"field": "count", "retryable": false, "docs": "/v1/errors#insufficient_credits", "request_id": nil,
		"ctx": map[string]any{
			"required": 12.0,
			"balance":  5.0,
		}, "input": nil, "job_id": "j_1", "required": 12.0, "balance": 5.0,
	}, got["error"])

	plain, err := json.Marshal(apierr.New(apierr.NotFound, "nothing here"))
	require.NoError(t, err)
	require.JSONEq(t, `{"code":"not_found","type":"not_found","message":"nothing here","field":null,"retryable":false,
		"docs":"/v1/errors#not_found","request_id":null,"ctx":{},"input":null}`, string(plain), "no job_id, required or "+
		"balance when unset")
}

func TestAs(t *testing.T) {
	known := apierr.New(apierr.JobNotFound, "No job j_1.")
	require.Same(
		t,
		known,
		apierr.As(fmt.Errorf("read job: %w", known)),
		"a wrapped catalogue error is answered as it is",
	)

	hidden := apierr.As(errors.New("pq: connection refused to 10.0.0.5"))
	require.Equal(t, apierr.Internal, hidden.Code)
	require.NotContains(t, hidden.Message, "10.0.0.5", "an internal error never shows its cause")
	require.True(t, hidden.Retryable)
}

func ptr(n int64) *int64 { return &n }
