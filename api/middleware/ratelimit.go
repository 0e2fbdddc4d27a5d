package middleware

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// Rate-limit defaults, used when Deps leaves them zero (TP_RATE_LIMIT,
// TP_RATE_WINDOW_SECONDS).
const (
	DefaultRateLimit  = 600
	DefaultRateWindow = time.Minute
)

// Limiter is the fixed-window request limit. Every request made with a key
// counts against that key; a request without one counts against the
// calling address (c.ClientIP()), with the same limit and window, and so
// does a request whose key was refused or sent in the URL. The
// counts live in PostgreSQL (rate_windows) and the window comes from the
// database clock, so every API process shares them.
type Limiter struct {
	db        *gorm.DB
	limit     int64
	window    time.Duration
	nextPrune atomic.Int64 // unix nanos of this process's next prune
}

// NewLimiter counts limit requests per window on db; a nil db counts
// nothing.
func NewLimiter(db *gorm.DB, limit int, window time.Duration) *Limiter {
	return &Limiter{db: db, limit: int64(limit), window: window}
}

// subject is what the request counts against, and false when it counts
// against nothing (a keyless operator probe).
func (l *Limiter) subject(c *gin.Context) (string, bool) {
	if id := IdentityOf(c); id != nil {
		return "key:" + id.Key.ID, true
	}
	if operational(c.Request.URL.Path) {
		return "", false
	}
	return addressOf(c), true
}

// addressOf is the subject of the calls counted against the calling address.
func addressOf(c *gin.Context) string { return "ip:" + c.ClientIP() }

// Middleware counts the request against its key or address; one call over
// the limit answers 429 rate_limited.
func (l *Limiter) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		if subject, ok := l.subject(c); ok {
			if over := l.Count(c, subject); over != nil {
				Fail(c, over)
				return
			}
		}
		c.Next()
	}
}

// Refuse answers err to a request whose key was refused (unreadable,
// invalid, or sent with an Origin) after counting it against the calling
// address; over the limit it answers 429 instead, so guessing keys is
// limited like any keyless call.
func (l *Limiter) Refuse(c *gin.Context, err error) {
	if over := l.Count(c, addressOf(c)); over != nil {
		err = over
	}
	Fail(c, err)
}

// Count adds the call to subject's window and sets X-RateLimit-Limit,
// -Remaining and -Reset on the answer, errors included. It returns the 429
// rate_limited (with Retry-After) to answer when the call is over the limit.
// A database failure counts nothing (logged): the limit protects the
// service, it is not a ledger.
func (l *Limiter) Count(c *gin.Context, subject string) *apierr.Error {
	if l.db == nil {
		return nil
	}
	hit, err := models.HitRate(c.Request.Context(), l.db, subject, l.window)
	if err != nil {
		Logger(c).Warn("rate limit not counted", zap.Error(err))
		return nil
	}
	l.maybePrune(c)
	reset := hit.ResetSeconds()
	c.Header("X-RateLimit-Limit", strconv.FormatInt(l.limit, 10))
	c.Header("X-RateLimit-Remaining", strconv.FormatInt(max(l.limit-hit.Calls, 0), 10))
	c.Header("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	if hit.Calls > l.limit {
		return apierr.Newf(apierr.RateLimited, "More than %d calls in %d seconds; wait %d seconds.", l.limit, int64(
			l.window/time.Second), reset).
			WithRetryAfter(reset)
	}
	return nil
}

// maybePrune deletes ended windows, at most once per window per process.
func (l *Limiter) maybePrune(c *gin.Context) {
	now := time.Now().UnixNano()
	next := l.nextPrune.Load()
	if now < next || !l.nextPrune.CompareAndSwap(next, now+int64(l.window)) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), 5*time.Second)
	defer cancel()
	if _, err := models.PruneRateWindows(ctx, l.db, l.window); err != nil {
		Logger(c).Warn("prune rate windows", zap.Error(err))
	}
}

// RateLimitRow is one row of GET /v1/account/limits.
type RateLimitRow struct {
	Per           string `json:"per"`
	Limit         int64  `json:"limit"`
	WindowSeconds int64  `json:"window_seconds"`
}

// Rows are the limits as GET /v1/account/limits answers them.
func (l *Limiter) Rows() []RateLimitRow {
	w := int64(l.window / time.Second)
	return []RateLimitRow{
		{Per: "api_key", Limit: l.limit, WindowSeconds: w},
		{Per: "ip", Limit: l.limit, WindowSeconds: w},
	}
}

// Answer answers GET /v1/account/limits.
func (l *Limiter) Answer(now func() time.Time) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"as_of": now(), "rate_limits": l.Rows()})
	}
}
