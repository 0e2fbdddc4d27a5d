package middleware

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
)

const loggerKey = "logger"

// AccessLog gives the request a logger carrying its request id and writes
// one line per request: at INFO, but at DEBUG for the operator's probes and
// scrapes (/healthz, /readyz, /metrics).
func AccessLog(base *zap.Logger) gin.HandlerFunc {
	if base == nil {
		base = zap.NewNop()
	}
	return func(c *gin.Context) {
		start := time.Now()
		l := base.With(zap.String("request_id", RequestIDOf(c)))
		c.Set(loggerKey, l)
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		fields := []zap.Field{
			zap.String("method", c.Request.Method),
			zap.String("route", route),
			zap.String("path", c.Request.URL.Path),
			zap.Int("status", c.Writer.Status()),
			zap.Duration("duration", time.Since(start)),
		}
		if id := IdentityOf(c); id != nil && id.Key != nil {
			fields = append(fields, zap.String("api_key_id", id.Key.ID))
		}
		if operational(c.Request.URL.Path) {
			l.Debug("request", fields...) // probes and scrapes, every few seconds
			return
		}
		l.Info("request", fields...)
	}
}

func Logger(c *gin.Context) *zap.Logger {
	if l, ok := c.Get(loggerKey); ok {
		return l.(*zap.Logger)
	}
	return zap.NewNop()
}

// Recoverer turns a panic into a logged internal error instead of a dropped
// connection.
func Recoverer(base *zap.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				Logger(c).Error("panic in handler", zap.String("panic", fmt.Sprint(r)), zap.Stack("stack"))
				writeError(c, apierr.New(apierr.Internal, ""))
			}
		}()
		c.Next()
	}
}
