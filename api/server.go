// Package api is the HTTP surface: the Gin router, the route table and one
// handler file per resource; the front door is api/middleware.
package api

import (
	"net/netip"
	"time"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/signer"
)

// CurrentVersion is the current dated contract version.
const CurrentVersion = contract.CurrentVersion

// Deps is what the API needs from the process that runs it.
type Deps struct {
	DB       *gorm.DB
	Temporal client.Client
	Blob     *blob.Bucket
	Log      *zap.Logger
	// BaseURL is the public base address used in URLs the API answers.
	BaseURL string
	// FilesBaseURL is the public base address of file URLs (/files/…), so
	// files can be served from another origin; empty means BaseURL.
	FilesBaseURL string
	// RateLimit and RateWindow are the fixed window: per key, and per
	// address for keyless calls; zero means DefaultRateLimit and
	// DefaultRateWindow. A nil DB disables rate limits and the request log.
	RateLimit  int
	RateWindow time.Duration
	// RequestLog writes the calls made with keys in the background; the
	// process Closes it after the HTTP server has shut down. Nil writes
	// each row synchronously after its request.
	RequestLog *middleware.RequestLog
	// Production refuses plain HTTP: a request must come over TLS, or from
	// one of TrustedProxies with X-Forwarded-Proto: https.
	Production bool
	// Signer publishes the webhook signing keys at /.well-known/jwks.json.
	Signer *signer.Signer
	// AllowPrivateURLs lets webhook URLs, registered file URLs and image
	// URLs of task inputs reach private addresses (dev/test only).
	AllowPrivateURLs bool
	// TrustedProxies are the addresses (IPs or CIDRs) whose X-Forwarded-For
	// names the client and whose X-Forwarded-Proto is believed; empty means
	// the peer address is the client and no peer vouches for TLS.
	TrustedProxies []string
	// Metrics registers the HTTP metrics; nil disables them.
	Metrics *middleware.HTTPMetrics
	// Tracing gives every request a server span; nil: no spans.
	Tracing trace.TracerProvider
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// AdmitTimeout bounds the synchronous admit of a submit.
	AdmitTimeout time.Duration
	// TaskQueue is where job workflows start; empty means contract.TaskQueue.
	TaskQueue string
	// Catalogue is the task catalogue served and run; the binary passes
	// every family (tasks/all). Nil means catalogue.Empty(): no task.
	Catalogue *catalog.Catalogue
	// Library reports on the curated and photoshoots libraries the process
	// writes as it starts (dev): nil once they are written,
	// ErrLibraryWriting meanwhile, another error if writing them failed.
	// /readyz answers 503 until it answers nil. Nil means they were written
	// before the process started (taskplatform migrate).
	Library func() error
}

func (d *Deps) now() time.Time {
	if d.Now != nil {
		return d.Now().UTC()
	}
	return time.Now().UTC()
}

// taskCatalogue is the catalogue the API serves and runs.
func (d *Deps) taskCatalogue() *catalog.Catalogue {
	if d.Catalogue == nil {
		return catalog.Empty()
	}
	return d.Catalogue
}

// defaults fills what Deps leaves zero.
func (d *Deps) defaults() {
	d.Catalogue = d.taskCatalogue()
	if d.FilesBaseURL == "" {
		d.FilesBaseURL = d.BaseURL
	}
	if d.AdmitTimeout == 0 {
		d.AdmitTimeout = 10 * time.Second
	}
	if d.TaskQueue == "" {
		d.TaskQueue = contract.TaskQueue
	}
	if d.RateLimit <= 0 {
		d.RateLimit = middleware.DefaultRateLimit
	}
	if d.RateWindow < time.Second {
		d.RateWindow = middleware.DefaultRateWindow
	}
}

// trustProxies makes r read the client from TrustedProxies (X-Forwarded-For)
// and returns them as prefixes for requireTLS; an unreadable list is
// logged and trusts nobody.
func trustProxies(r *gin.Engine, d *Deps) []netip.Prefix {
	proxies, err := middleware.ParseProxies(d.TrustedProxies)
	if err == nil {
		err = r.SetTrustedProxies(d.TrustedProxies)
	}
	if err != nil {
		if d.Log != nil {
			d.Log.Error("ignoring TP_TRUSTED_PROXIES", zap.Error(err))
		}
		_ = r.SetTrustedProxies(nil)
		return nil
	}
	return proxies
}

// NewRouter builds the Gin engine with every route of the route table.
func NewRouter(d Deps) *gin.Engine {
	d.defaults()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	proxies := trustProxies(r, &d)
	r.HandleMethodNotAllowed = true
	// An API answers its JSON error for a trailing slash or a misspelt
	// path; gin's defaults answer a 301 or 307 with an HTML body.
	r.RedirectTrailingSlash, r.RedirectFixedPath = false, false
	r.ContextWithFallback = false
	if d.Tracing != nil {
		r.Use(middleware.Tracing(d.Tracing))
	}
	r.Use(middleware.AssignRequestID(), middleware.AccessLog(d.Log), middleware.RecordRequests(d.DB, d.RequestLog, d.now))
	if d.Metrics != nil {
		if d.DB != nil {
			d.Metrics.WatchBacklog(d.DB, d.now)
		}
		r.Use(d.Metrics.Middleware())
	}
	limits := middleware.NewLimiter(d.DB, d.RateLimit, d.RateWindow)
	auth := middleware.NewAuthenticator(d.DB, d.now, limits)
	// In order: refuse a key in the URL before anything else runs, then the
	// size of the headers, the transport, what the headers hold, the body
	// size and a path or query no database stores, then who is calling, the
	// rate limit, the contract version, what the route's row of the route
	// table needs, the media type and a JSON body's text. A refused key (in
	// the URL or in a header) counts against the calling address; a request
	// refused before it is identified counts as well (refuseEarly), so every
	// answer carries the rate-limit headers.
	early := auth.RefuseEarly
	r.Use(
		middleware.Recoverer(d.Log),
		middleware.RenderErrors(),
		middleware.RejectKeyInQuery(limits),
		middleware.LimitHeaders(early),
		middleware.RequireTLS(d.Production, proxies, early),
		middleware.CheckHeaders(
			early,
		),
		middleware.BodyLimit(early),
		middleware.RefuseUnreadableText(early),
		auth.Identify(),
		limits.Middleware(),
		middleware.ServiceVersion(),
		middleware.Authorize(d.Catalogue.Tasks(), middleware.NewSessions(d.DB, d.now), ruleOf),
		middleware.RequireJSON(),
		middleware.RefuseUnreadableBody(),
	)
	r.NoRoute(func(c *gin.Context) { middleware.Fail(c, middleware.ErrNotFound) })
	r.NoMethod(func(c *gin.Context) { middleware.Fail(c, middleware.ErrMethodNotAllowed) })

	register(r, newHandlers(&d, limits))
	return r
}
