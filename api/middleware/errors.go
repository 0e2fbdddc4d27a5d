package middleware

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// errorCodeKey holds the code of the error a request was answered with.
const errorCodeKey = "error_code"

var (
	ErrNotFound         = apierr.New(apierr.NotFound, "")
	ErrMethodNotAllowed = apierr.New(apierr.MethodNotAllowed, "")
)

// ErrUnavailable answers a request the database could not serve (down,
// unreachable, too slow): retry the same request later.
func ErrUnavailable() *apierr.Error {
	return apierr.New(apierr.ServiceUnavailable, "The service's database is not answering; retry in a moment.")
}

// Fail records err for the error middleware and stops the chain. err is an
// *apierr.Error to answer; anything else is logged and answered as internal.
func Fail(c *gin.Context, err error) {
	_ = c.Error(err)
	c.Abort()
}

// RenderErrors is the one place errors become responses: the last error a
// handler recorded is rendered in the { "error": {...} } shape with the
// request id and the X-Service-Error-Type header.
func RenderErrors() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		if len(c.Errors) == 0 || c.Writer.Written() {
			return
		}
		writeError(c, c.Errors.Last().Err)
	}
}

// writeError renders err at once.
func writeError(c *gin.Context, err error) {
	var ae *apierr.Error
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil:
		// The client left before the answer: nothing for an operator.
		Logger(c).Info("client left before the answer", zap.String("path", c.Request.URL.Path))
		ae = apierr.New(apierr.Internal, "")
	case errors.Is(err, models.ErrBadPosition):
		ae = ErrBadCursor() // a cursor that decoded but names no position
	case models.Unavailable(err):
		Logger(c).Error("database unavailable", zap.Error(err))
		ae = ErrUnavailable()
	default:
		Logger(c).Error("request failed", zap.Error(err))
		ae = apierr.New(apierr.Internal, "")
	}
	out := *ae
	_ = out.WithDefaultRetryAfter() // sets out's Retry-After in place
	ContractOf(c).ErrorObject(&out)
	rid := RequestIDOf(c)
	out.RequestID = &rid
	status := out.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if out.Ctx.RetryAfter != nil {
		c.Header("Retry-After", itoa(*out.Ctx.RetryAfter))
	}
	c.Header("X-Service-Error-Type", string(out.Type))
	if c.Writer.Header().Get("Service-Version") == "" {
		c.Header("Service-Version", VersionOf(c))
	}
	c.Set(errorCodeKey, string(out.Code))
	c.AbortWithStatusJSON(status, apierr.Envelope{Error: &out})
}

// ErrBadCursor answers a cursor that does not decode to a position.
func ErrBadCursor() *apierr.Error {
	return apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").WithField("cursor")
}
