package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/worker"
)

// checkPriority logs in one line whether the Temporal server dispatches by
// priority and fairness (dev and worker, on start), and warns when it does
// not: the jobs run all the same, first-in-first-out.
func checkPriority(ctx context.Context, s *stack, namespace string, log *zap.Logger) {
	p, err := worker.CheckPriority(ctx, s.temporal, namespace)
	switch {
	case err != nil:
		log.Warn("cannot tell whether the Temporal server dispatches by priority and fairness", zap.Error(err))
	case p.Priority && p.Fairness:
		log.Info(p.String())
	default:
		log.Warn(p.String())
	}
}
