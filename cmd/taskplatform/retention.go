package main

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// pruneInterval is how often the worker prunes; the first pass runs at start.
const pruneInterval = time.Hour

// retention is what the worker prunes, and how: rows older than the
// retentions (0: kept forever), at most batch rows per statement.
type retention struct {
	requestLog, deliveries time.Duration
	batch                  int
	every                  time.Duration
}

func (c config) retention() retention {
	return retention{
		requestLog: c.RequestLogRetention,
		deliveries: c.DeliveryRetention,
		batch:      c.PruneBatch,
		every:      pruneInterval,
	}
}

// pruneOnce deletes the request log's calls and the finished webhook
// deliveries (with their attempts) older than their retention, the panel
// sessions that have expired and sign-in attempts of the day before.
func (r retention) pruneOnce(ctx context.Context, db *gorm.DB, log *zap.Logger, now time.Time) {
	if n, err := models.PruneSessions(ctx, db, now); err != nil && ctx.Err() == nil {
		log.Warn("prune panel sessions", zap.Error(err))
	} else if n > 0 {
		log.Info("pruned expired panel sessions", zap.Int64("sessions", n))
	}
	// Sign-in attempts matter for an hour at most (the panel's back-off
	// forgets older failures; its address window is 15 minutes).
	if n, err := models.PruneSignInAttempts(ctx, db, now.Add(-24*time.Hour)); err != nil && ctx.Err() == nil {
		log.Warn("prune sign-in attempts", zap.Error(err))
	} else if n > 0 {
		log.Info("pruned sign-in attempts", zap.Int64("rows", n))
	}
	if r.requestLog > 0 {
		n, err := models.PruneRequestLogs(ctx, db, now.Add(-r.requestLog), r.batch)
		if err != nil && ctx.Err() == nil {
			log.Warn("prune request log", zap.Error(err))
		} else if n > 0 {
			log.Info("pruned request log", zap.Int64("rows", n), zap.Duration("retention", r.requestLog))
		}
	}
	if r.deliveries > 0 {
		n, err := models.PruneDeliveries(ctx, db, now.Add(-r.deliveries), r.batch)
		if err != nil && ctx.Err() == nil {
			log.Warn("prune webhook deliveries", zap.Error(err))
		} else if n > 0 {
			log.Info("pruned webhook deliveries", zap.Int64("deliveries", n), zap.Duration("retention", r.deliveries))
		}
	}
}

// startRetention prunes now and every r.every in the background (worker
// and dev); the function it returns stops it and waits, so the database
// can be closed after it.
func startRetention(ctx context.Context, db *gorm.DB, r retention, log *zap.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(r.every)
		defer tick.Stop()
		for {
			r.pruneOnce(ctx, db, log, time.Now())
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
