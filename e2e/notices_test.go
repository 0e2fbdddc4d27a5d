package e2e_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// smtpSink is an in-process SMTP server that keeps every message it is
// given: enough of RFC 5321 for net/smtp (no extensions, so no STARTTLS or
// AUTH is offered).
type smtpSink struct {
	ln   net.Listener
	mu   sync.Mutex
	mail []sunkMail
}

type sunkMail struct {
	from, to string
	data     string
}

func newSMTPSink(t *testing.T) *smtpSink {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &smtpSink{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpSink) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = c.Write([]byte(line + "\r\n")) }
	say("220 sink")
	var m sunkMail
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			m = sunkMail{from: strings.Trim(strings.TrimSpace(line)[10:], "<> ")}
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			m.to = strings.Trim(strings.TrimSpace(line)[8:], "<> ")
			say("250 ok")
		case cmd == "DATA":
			say("354 end with .")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			m.data = b.String()
			s.mu.Lock()
			s.mail = append(s.mail, m)
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default: // EHLO, HELO, RSET, NOOP
			say("250 sink")
		}
	}
}

// to is the mail sunk for one address.
func (s *smtpSink) to(addr string) []sunkMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []sunkMail
	for _, m := range s.mail {
		if m.to == addr {
			out = append(out, m)
		}
	}
	return out
}

// The deprecation-notices schedule, triggered on SQLite (the default of
// `make run`) and on PostgreSQL: the owner of an account whose key started
// pattern.stripes gets one notice naming the replacement and the migration
// step; an account that only called pattern.generate gets none; a second
// run in the same week sends nothing more.
func TestDeprecationNoticesBySchedule(t *testing.T) {
	t.Parallel()
	for _, backend := range testenv.Backends {
		t.Run(string(backend), func(t *testing.T) { noticesBySchedule(t, backend) })
	}
}

func noticesBySchedule(t *testing.T, backend testenv.Backend) {
	ctx := context.Background()
	sink := newSMTPSink(t)
	s := newStack(t, stackOptions{backend: backend, credits: 1000, noWorker: true})
	mailer, err := activities.NewSMTP("smtp://" + sink.ln.Addr().String() + "?from=notices@taskplatform.test")
	require.NoError(t, err)
	s.acts.Mail, s.acts.MailFrom = mailer, mailer.From()
	s.startWorker(false)

	stripes := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.stripes",
		map[string]any{"colors": []string{"#1B2A4A", "#F4F1EA"}, "resolution": "512"},
	)
	require.Equal(t, http.StatusAccepted, stripes.status, "%s", stripes.body)
	s.waitTerminal(stripes.json(t)["job_id"].(string))
	user, err := models.UserByID(ctx, s.db, s.userID)
	require.NoError(t, err)

	otherID, otherKey, _ := s.newAccount(1000)
	ownKey := s.key
	s.key = otherKey
	gen := s.submit(map[string]any{"colors": []string{"#1B2A4A", "#F4F1EA"}, "resolution": "512"})
	require.Equal(t, http.StatusAccepted, gen.status, "%s", gen.body)
	s.waitTerminal(gen.json(t)["job_id"].(string))
	s.key = ownKey
	other, err := models.UserByID(ctx, s.db, otherID)
	require.NoError(t, err)

	tc := temporalClient(t)
	id := "deprecation-notices-" + s.queue // the real id is shared by every test on this server
	require.NoError(t, worker.EnsureNoticeSchedule(ctx, tc, id, s.queue))
	require.NoError(t, worker.EnsureNoticeSchedule(ctx, tc, id, s.queue), "an existing schedule is kept")
	h := tc.ScheduleClient().GetHandle(ctx, id)
	t.Cleanup(func() { _ = h.Delete(context.Background()) })

	run := func(n int) {
		require.NoError(t, h.Trigger(ctx, client.ScheduleTriggerOptions{}))
		require.Eventually(t, func() bool {
			d, err := h.Describe(ctx)
			return err == nil && len(d.Info.RecentActions) == n && len(d.Info.RunningWorkflows) == 0
		}, patience, 100*time.Millisecond, "run %d of the schedule ends", n)
	}
	run(1)
	got := sink.to(user.Email)
	require.Len(t, got, 1, "one notice for the account that called pattern.stripes")
	require.Equal(t, "notices@taskplatform.test", got[0].from)
	for _, want := range []string{"Subject: Deprecated tasks your API keys use: pattern.stripes", "Replacement: " +
		"pattern.generate",
		`Migration: POST the same body to /v1/tasks/pattern.generate with "kind": "stripes"`, "Removal: not announced yet"} {
		require.Contains(t, got[0].data, want)
	}
	require.Empty(t, sink.to(other.Email), "none for an account that did not")

	run(2)
	require.Len(t, sink.to(user.Email), 1, "once per week")
	var n models.DeprecationNotice
	require.NoError(t, s.db.Take(&n, "user_id = ?", user.ID).Error)
	require.Equal(t, models.NoticeSent, n.Status)
}
