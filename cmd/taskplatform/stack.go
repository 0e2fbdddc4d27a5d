package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob:// blob URLs
	_ "gocloud.dev/blob/fileblob"  // file:// blob URLs
	_ "gocloud.dev/blob/gcsblob"   // gs:// blob URLs
	_ "gocloud.dev/blob/memblob"   // mem:// blob URLs (tests)
	_ "gocloud.dev/blob/s3blob"    // s3:// blob URLs: AWS and S3-compatible stores (MinIO, R2, Ceph)
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/enginehooks"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/keystore"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/panel"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/telemetry"
	"github.com/taskplatform/taskplatform/worker"
)

func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// logLevel is TP_LOG_LEVEL: debug, info (the default), warn or error.
func logLevel() (zapcore.Level, error) {
	return zapcore.ParseLevel(env("TP_LOG_LEVEL", "info"))
}

// newLogger is JSON for production processes and readable text for dev,
// both at TP_LOG_LEVEL (INFO by default, so the Temporal SDK's DEBUG lines,
// which go through the same logger, stay out unless asked for).
func newLogger(human bool) *zap.Logger {
	lvl, err := logLevel()
	if err != nil {
		lvl = zapcore.InfoLevel // loadConfig has already refused it
	}
	if human {
		cfg := zap.NewDevelopmentConfig()
		cfg.Level = zap.NewAtomicLevelAt(lvl)
		cfg.EncoderConfig.EncodeLevel = zapcore.CapitalColorLevelEncoder
		cfg.DisableStacktrace = true
		l, _ := cfg.Build()
		return l
	}
	cfg := zap.NewProductionConfig()
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.DisableStacktrace = true // an error is one readable line, not a goroutine dump
	cfg.EncoderConfig.TimeKey = "time"
	cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	l, _ := cfg.Build()
	return l
}

// stack is what every process builds: database, blob store, metrics, Temporal.
type stack struct {
	cfg      config
	log      *zap.Logger
	db       *gorm.DB
	bucket   *blob.Bucket
	registry *prometheus.Registry
	// jobMetrics are the business counters settlement adds to, on registry.
	jobMetrics *activities.JobMetrics
	// telemetry reports the SDK's metrics on registry and, when
	// OTEL_EXPORTER_OTLP_ENDPOINT is set, exports traces.
	telemetry *telemetry.Telemetry
	temporal  client.Client
	requests  *middleware.RequestLog
	signer    *signer.Signer
	// library is the state of the libraries dev writes as it starts (nil:
	// written before, by migrate); /readyz waits for it.
	library func() error
	// tasks is the catalogue the process serves and runs (taskRegistry).
	tasks *tasks.Registry
}

// taskRegistry is the catalogue the process serves and runs: every family,
// with the routes and tasks of TP_ENGINES when it is set (a route or task
// that fails its checks is logged and left out). Built once per process.
func (s *stack) taskRegistry() *tasks.Registry {
	if s.tasks != nil {
		return s.tasks
	}
	if s.cfg.Engines == nil {
		s.tasks = all.Registry()
		return s.tasks
	}
	cl := engines.Clients{Fetch: fetchClient(s.cfg.AllowPrivateURLs, s.telemetry.Tracing()),
		Leases: models.EngineLeases{DB: func() *gorm.DB { return s.db }}}
	if hooks, err := enginehooks.NewStore(func() *gorm.DB { return s.db }, s.cfg.EngineCallbackURL); err == nil {
		cl.Completions = hooks
	} else {
		s.log.Warn("engines: async engines without webhook_listen are left out", zap.Error(err))
	}
	r, err := engines.Assemble(s.cfg.Engines, all.Families(), cl, s.log)
	if err != nil {
		panic(err) // a family that does not register: every test run catches it
	}
	s.tasks = r
	return r
}

func (s *stack) close() {
	if s.requests != nil {
		// After the HTTP server stopped: flush the request log before the
		// database closes, so a clean shutdown loses no row.
		if err := s.requests.Close(); err != nil {
			s.log.Error("request log flush failed", zap.Error(err))
		}
	}
	if s.temporal != nil {
		s.temporal.Close()
	}
	if s.telemetry != nil {
		// Last of the Temporal clients' spans flushed within a bound.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := s.telemetry.Shutdown(ctx); err != nil {
			s.log.Warn("telemetry not flushed", zap.Error(err))
		}
		cancel()
	}
	if s.bucket != nil {
		_ = s.bucket.Close()
	}
	if s.db != nil {
		_ = models.Close(s.db)
	}
	_ = s.log.Sync()
}

func (s *stack) openStores(ctx context.Context) error {
	db, err := models.Open(ctx, models.OpenConfig{URL: s.cfg.DatabaseURL, DataDir: s.cfg.DataDir,
		MaxConns: s.cfg.DatabaseMaxConns})
	if err != nil {
		return err
	}
	s.db = db
	b, err := blob.OpenBucket(ctx, s.cfg.BlobURL)
	if err != nil {
		return fmt.Errorf("open blob store %s: %w", s.cfg.BlobURL, err)
	}
	s.bucket = b
	s.registry = prometheus.NewRegistry()
	s.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	s.jobMetrics = activities.NewJobMetrics(s.registry)
	tel, err := telemetry.New(ctx, telemetry.Options{Service: "taskplatform", Registry: s.registry})
	if err != nil {
		return fmt.Errorf("telemetry: %w", err)
	}
	s.telemetry = tel
	return nil
}

// loadSigner reads (or, the first time, creates) the webhook signing key.
func (s *stack) loadSigner(ctx context.Context) error {
	sg, err := keystore.Load(ctx, s.db)
	if err != nil {
		return fmt.Errorf("load the webhook signing key: %w", err)
	}
	s.signer = sg
	return nil
}

func (s *stack) dialTemporal(ctx context.Context) error {
	c, err := worker.Dial(ctx, s.cfg.TemporalAddress, s.cfg.TemporalNamespace, s.log, s.telemetry)
	if err != nil {
		return err
	}
	s.temporal = c
	return nil
}

func (s *stack) activities() *activities.Activities {
	return withMail(
		&activities.Activities{
			DB:           s.db,
			Blob:         s.bucket,
			Log:          s.log,
			StepDelay:    s.cfg.DevStepDelay,
			FilesBaseURL: s.cfg.FilesBaseURL,
			Signer:       s.signer,
			Tasks:        s.taskRegistry(),
			HTTP: outbound.New(
				outbound.Options{
					AllowPrivate: s.cfg.AllowPrivateURLs,
					Timeout:      15 * time.Second,
					Tracing:      s.telemetry.Tracing(),
				},
			),
			Fetch: fetchClient(
				s.cfg.AllowPrivateURLs,
				s.telemetry.Tracing(),
			),
			Temporal:         s.temporal,
			CapacityDeadline: s.cfg.AnalysisDeadline,
			Metrics:          s.jobMetrics,
		},
		s.cfg.SMTPURL,
	)
}

// fetchClient fetches caller-given image URLs within limits.url_fetch,
// following redirects hop by hop through the address guard, each request
// under a client span when tracing is on (tp not nil).
func fetchClient(allowPrivate bool, tp trace.TracerProvider) *http.Client {
	lim := contract.DefaultLimits().URLFetch
	return outbound.New(
		outbound.Options{AllowPrivate: allowPrivate, FollowRedirects: true, MaxRedirects: lim.MaxRedirects,
			ConnectTimeout: time.Duration(
				lim.ConnectTimeoutSeconds,
			) * time.Second, Timeout: time.Duration(lim.ReadTimeoutSeconds) * time.Second,
			MaxBytes: lim.MaxBytes, Tracing: tp},
	)
}

// router is the API with the account panel in front of it.
func (s *stack) router(production bool) http.Handler {
	s.requests = middleware.NewRequestLog(s.db, s.log)
	return panel.Mount(
		api.Deps{
			DB:               s.db,
			Temporal:         s.temporal,
			Blob:             s.bucket,
			Log:              s.log,
			BaseURL:          s.cfg.BaseURL,
			FilesBaseURL:     s.cfg.FilesBaseURL,
			RateLimit:        s.cfg.RateLimit,
			RateWindow:       s.cfg.RateWindow,
			Production:       production,
			Metrics:          middleware.NewHTTPMetrics(s.registry),
			Tracing:          s.telemetry.Tracing(),
			RequestLog:       s.requests,
			TrustedProxies:   s.cfg.TrustedProxies,
			Signer:           s.signer,
			AllowPrivateURLs: s.cfg.AllowPrivateURLs,
			Library:          s.library,
			Catalogue:        catalogue.New(s.taskRegistry()),
		},
	)
}

// serveHTTP serves h on addr until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, log *zap.Logger, addr string, h http.Handler, certFile, keyFile string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	return serveListener(ctx, log, ln, h, certFile, keyFile)
}

// serveListener serves h on ln until ctx ends, then shuts down gracefully.
func serveListener(
	ctx context.Context,
	log *zap.Logger,
	ln net.Listener,
	h http.Handler,
	certFile, keyFile string,
) error {
	srv := newHTTPServer(h, log, defaultServerLimits())
	errc := make(chan error, 1)
	go func() {
		if certFile != "" {
			errc <- srv.ServeTLS(ln, certFile, keyFile)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// fatal logs one clear line and returns the exit code.
func fatal(log *zap.Logger, msg string, err error) int {
	if err != nil {
		log.Error(msg, zap.Error(err))
	} else {
		log.Error(msg)
	}
	return 1
}
