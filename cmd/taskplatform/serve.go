package main

import (
	"context"
	"errors"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"gocloud.dev/blob"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/worker"
)

// productionStack opens what api and worker need, refusing to start with a
// dev switch set, without PostgreSQL or with a schema that is not migrated.
func productionStack(ctx context.Context, cfg config, log *zap.Logger) (*stack, int) {
	if err := refuseDevSwitches(cfg); err != nil {
		return nil, fatal(log, err.Error(), nil)
	}
	if cfg.DatabaseURL == "" {
		return nil, fatal(
			log,
			"TP_DATABASE_URL is required: set it to a PostgreSQL DSN, e.g. postgres://user@host:5432/taskplatform",
			nil,
		)
	}
	s := &stack{cfg: cfg, log: log}
	if err := s.openStores(ctx); err != nil {
		s.close()
		return nil, fatal(log, "cannot open the stores", err)
	}
	if err := models.CheckSchema(ctx, s.db); err != nil {
		s.close()
		return nil, fatal(log, "database schema not ready", err)
	}
	if err := s.loadSigner(ctx); err != nil {
		s.close()
		return nil, fatal(log, "cannot load the signing key", err)
	}
	if err := s.dialTemporal(ctx); err != nil {
		s.close()
		return nil, fatal(log, "cannot reach Temporal (set TP_TEMPORAL_ADDRESS)", err)
	}
	return s, 0
}

// refuseDevSwitches is the production processes' refusal of the dev and
// test switches: TP_ALLOW_PRIVATE_URLS turns the SSRF guard off, and
// TP_DEV_STEP_DELAY slows every task step. Only `taskplatform dev` (and the
// tests) may use them.
func refuseDevSwitches(cfg config) error {
	switch {
	case cfg.AllowPrivateURLs:
		return errors.New(
			"TP_ALLOW_PRIVATE_URLS is for dev and tests only: it lets webhooks and URL fetches reach private addresses; " +
				"unset it to run api or worker",
		)
	case cfg.DevStepDelay != 0:
		return errors.New(
			"TP_DEV_STEP_DELAY is for dev and tests only: it slows every task step; unset it to run api or worker",
		)
	}
	return nil
}

// registerSearchAttributes adds the job search attributes to the namespace,
// as dev does: a Temporal without them refuses to start job workflows.
func registerSearchAttributes(ctx context.Context, s *stack) error {
	return worker.RegisterSearchAttributes(ctx, s.temporal, s.cfg.TemporalNamespace)
}

// runAPI is `taskplatform api`.
func runAPI(ctx context.Context, cfg config) int {
	log := newLogger(false).With(zap.String("process", "api"))
	s, code := productionStack(ctx, cfg, log)
	if s == nil {
		return code
	}
	defer s.close()
	if err := registerSearchAttributes(ctx, s); err != nil {
		// The worker registers them too and fails if it cannot.
		log.Warn("search attributes not registered", zap.Error(err))
	}
	log.Info("api listening", zap.String("addr", cfg.HTTPAddr), zap.Bool("tls", cfg.TLSCertFile != ""))
	if err := serveHTTP(ctx, log, cfg.HTTPAddr, s.router(true), cfg.TLSCertFile, cfg.TLSKeyFile); err != nil {
		return fatal(log, "api stopped", err)
	}
	log.Info("api stopped")
	return 0
}

// runWorker is `taskplatform worker`; it serves its metrics on TP_METRICS_ADDR.
func runWorker(ctx context.Context, cfg config) int {
	log := newLogger(false).With(zap.String("process", "worker"))
	if cfg.DatabaseMaxConns == 0 {
		cfg.DatabaseMaxConns = models.DefaultWorkerConns
	}
	s, code := productionStack(ctx, cfg, log)
	if s == nil {
		return code
	}
	defer s.close()
	if err := registerSearchAttributes(ctx, s); err != nil {
		return fatal(log, "cannot register the job search attributes", err)
	}
	w := worker.New(s.temporal, s.activities(), worker.Options{MaxConcurrentSteps: cfg.MaxConcurrentStep,
		AnalysisCapacity: cfg.AnalysisCapacity, LateAdmits: activities.LateAdmitOptions{Deadline: cfg.LateAdmitDeadline}})
	if err := w.Start(); err != nil {
		return fatal(log, "worker did not start", err)
	}
	defer w.Stop()
	ensureNotices(ctx, s, log)
	checkPriority(ctx, s, cfg.TemporalNamespace, log)
	defer startRetention(ctx, s.db, cfg.retention(), log)()
	log.Info("worker running", zap.String("temporal", cfg.TemporalAddress), zap.String("metrics", cfg.MetricsAddr))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{}))
	if err := serveHTTP(ctx, log, cfg.MetricsAddr, mux, "", ""); err != nil {
		return fatal(log, "metrics server stopped", err)
	}
	return 0
}

// runMigrate is `taskplatform migrate`.
func runMigrate(ctx context.Context, cfg config) int {
	log := newLogger(false).With(zap.String("process", "migrate"))
	db, err := models.Open(ctx, models.OpenConfig{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return fatal(log, "cannot open the database", err)
	}
	defer models.Close(db)
	if err := models.Migrate(ctx, db); err != nil {
		return fatal(log, "migration failed", err)
	}
	bucket, err := blob.OpenBucket(ctx, cfg.BlobURL)
	if err != nil {
		return fatal(log, "cannot open the blob store", err)
	}
	defer bucket.Close()
	if err := records.SeedCurated(ctx, db, bucket); err != nil {
		return fatal(log, "cannot write the curated library", err)
	}
	if err := photoshoot.SeedLibrary(ctx, db, bucket); err != nil {
		return fatal(log, "cannot write the photoshoots library", err)
	}
	log.Info("schema up to date, curated library written")
	return 0
}
