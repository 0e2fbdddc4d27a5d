package activities

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// PlanNotices writes the week's deprecation notices to the outbox: one per
// account whose keys started a deprecated task (not removed: a removed task
// ends its notices) in the last contract.NoticesWindowDays days, naming the
// tasks, their replacements, migration steps and announced removal dates.
// An account already told this ISO week is not written again. It answers
// every notice of the week still pending.
func (a *Activities) PlanNotices(ctx context.Context) (contract.NoticesPlan, error) {
	now := a.now()
	deprecated := map[string]*tasks.Definition{}
	for _, d := range a.registry().Runnable() {
		if d.Status == "deprecated" {
			deprecated[d.Name] = d
		}
	}
	uses, err := models.TaskUses(ctx, a.DB, slicesKeys(deprecated), now.AddDate(0, 0, -contract.NoticesWindowDays))
	if err != nil {
		return contract.NoticesPlan{}, err
	}
	year, wk := now.ISOWeek()
	week := fmt.Sprintf("%d-W%02d", year, wk)
	var plan contract.NoticesPlan
	for i := 0; i < len(uses); {
		j := i
		for j < len(uses) && uses[j].UserID == uses[i].UserID {
			j++
		}
		n, err := models.QueueNotice(ctx, a.DB, noticeOf(uses[i:j], deprecated, week))
		if err != nil {
			return contract.NoticesPlan{}, err
		}
		if n.Status == models.NoticePending {
			plan.Pending = append(plan.Pending, n.ID)
		}
		i = j
	}
	a.Log.Info("deprecation notices planned", zap.String("week", week), zap.Int("accounts", len(plan.Pending)))
	return plan, nil
}

func slicesKeys(m map[string]*tasks.Definition) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// noticeOf is one account's notice of the week.
func noticeOf(uses []models.TaskUse, deprecated map[string]*tasks.Definition, week string) *models.DeprecationNotice {
	var b strings.Builder
	b.WriteString(
		"Hello,\n\nIn the last " + fmt.Sprint(
			contract.NoticesWindowDays,
		) + " days your API keys called tasks that are deprecated. They keep working until their removal, announced in " +
			"the changelog (GET /v1/changelog). Please move to their replacements:\n",
	)
	names := make([]string, 0, len(uses))
	for _, u := range uses {
		d := deprecated[u.Task]
		names = append(names, d.Name)
		fmt.Fprintf(
			&b,
			"\n* %s (%d calls, the last at %s)\n  Replacement: %s\n  Migration: %s\n  Removal: %s\n",
			d.Name,
			u.Calls,
			u.Last.UTC().Format(time.RFC3339),
			d.ReplacedBy,
			d.Migration,
			cmp.Or(d.RemovalOn, "not announced yet"),
		)
	}
	b.WriteString("\nThis notice is sent once a week while your keys call deprecated tasks.\n")
	return &models.DeprecationNotice{UserID: uses[0].UserID, Week: week, Email: uses[0].Email,
		Subject: "Deprecated tasks your API keys use: " + strings.Join(names, ", "), Body: b.String()}
}

// SendNotice sends one outbox notice and marks it sent; a notice already
// sent is not sent again (a retried or replayed activity). A failed send is
// an error the activity's retry policy retries. Without a Mailer
// (TP_SMTP_URL unset) the notice is logged and marked sent.
func (a *Activities) SendNotice(ctx context.Context, id string) error {
	n, err := models.NoticeByID(ctx, a.DB, id)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("notice not found", "notice_not_found", err)
	}
	if n.Status == models.NoticeSent {
		return nil
	}
	if a.Mail == nil {
		a.Log.Info("deprecation notice recorded, not sent (TP_SMTP_URL unset)", zap.String("notice_id", n.ID),
			zap.String("to", n.Email), zap.String("subject", n.Subject))
	} else {
		from := a.MailFrom
		if from == "" {
			from = "taskplatform@localhost"
		}
		if err := a.Mail.Send(ctx, from, n.Email, noticeMessage(n, from)); err != nil {
			return err
		}
	}
	return models.MarkNoticeSent(ctx, a.DB, n.ID, a.now())
}

// noticeMessage is the notice as an RFC 5322 message; its Message-ID is the
// notice id, so a receiver can drop a copy sent twice.
func noticeMessage(n *models.DeprecationNotice, from string) []byte {
	host := from[strings.LastIndex(from, "@")+1:]
	var b strings.Builder
	fmt.Fprintf(
		&b,
		"From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: "+
			"text/plain; charset=utf-8\r\n\r\n",
		from,
		n.Email,
		n.Subject,
		n.ID,
		host,
		n.CreatedAt.UTC().Format(time.RFC1123Z),
	)
	b.WriteString(strings.ReplaceAll(n.Body, "\n", "\r\n"))
	return []byte(b.String())
}
