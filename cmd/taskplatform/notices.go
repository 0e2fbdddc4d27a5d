package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/worker"
)

// withMail gives the activities the SMTP mailer of TP_SMTP_URL (checked by
// loadConfig); unset, deprecation notices are recorded and logged, not sent.
func withMail(a *activities.Activities, smtpURL string) *activities.Activities {
	if smtpURL == "" {
		return a
	}
	if m, err := activities.NewSMTP(smtpURL); err == nil {
		a.Mail, a.MailFrom = m, m.From()
	}
	return a
}

// ensureNotices creates the weekly deprecation-notices schedule when it is
// missing (dev and worker, on start). A failure is logged, not fatal: the
// jobs run without it and the next start tries again.
func ensureNotices(ctx context.Context, s *stack, log *zap.Logger) {
	if err := worker.EnsureNoticeSchedule(ctx, s.temporal, "", ""); err != nil {
		log.Error("cannot create the deprecation-notices schedule", zap.Error(err))
	}
}
