package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The states of a deprecation notice in the outbox.
const (
	NoticePending = "pending"
	NoticeSent    = "sent"
)

// DeprecationNotice is one weekly e-mail to an account's owner about the
// deprecated tasks its keys started (the outbox of the deprecation-notices
// schedule). One row per account and ISO week: a week's notice is written
// once, however often the workflow runs, and sent until it is marked sent.
type DeprecationNotice struct {
	ID        string `gorm:"primaryKey"`
	UserID    uint64 `gorm:"not null;uniqueIndex:idx_notices_user_week,priority:1"`
	Week      string `gorm:"not null;uniqueIndex:idx_notices_user_week,priority:2"`
	Email     string `gorm:"not null"`
	Subject   string `gorm:"not null"`
	Body      string `gorm:"not null"`
	Status    string `gorm:"not null;default:pending;index"`
	SentAt    *time.Time
	CreatedAt time.Time `gorm:"not null"`
}

// TaskUse is one account's use of one task in a period: the calls its keys
// started.
type TaskUse struct {
	UserID uint64
	Email  string
	Task   string
	Calls  int64
	Last   time.Time
}

// TaskUses lists, per account and task, the jobs the account's keys started
// of any of names since since, by account then task.
func TaskUses(ctx context.Context, db *gorm.DB, names []string, since time.Time) ([]TaskUse, error) {
	var out []TaskUse
	if len(names) == 0 {
		return out, nil
	}
	rows, err := db.WithContext(ctx).Table("jobs").
		Select("jobs.user_id, users.email, jobs.task, COUNT(*), MAX(jobs.created_at)").
		Joins("JOIN users ON users.id = jobs.user_id").
		Where("jobs.task IN ? AND jobs.created_at >= ? AND jobs.api_key_id <> ''", names, since).
		Group("jobs.user_id, users.email, jobs.task").Order("jobs.user_id, jobs.task").
		Rows()
	if err != nil {
		return nil, fmt.Errorf("task uses: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			u    TaskUse
			last aggregateTime
		)
		if err := rows.Scan(&u.UserID, &u.Email, &u.Task, &u.Calls, &last); err != nil {
			return nil, fmt.Errorf("task uses: %w", err)
		}
		u.Last = last.Time
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("task uses: %w", err)
	}
	return out, nil
}

// aggregateTime reads a time an aggregate answers, such as MAX(created_at):
// PostgreSQL answers a timestamp, SQLite the stored text (its driver turns
// a column declared as a time into a time.Time, not an expression over it).
type aggregateTime struct{ time.Time }

// sqliteTimeFormats are the layouts the SQLite driver writes times in and
// reads them back from.
var sqliteTimeFormats = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
}

// Scan takes a time.Time, or text in one of sqliteTimeFormats.
func (t *aggregateTime) Scan(v any) error {
	var text string
	switch v := v.(type) {
	case time.Time:
		t.Time = v
		return nil
	case nil:
		t.Time = time.Time{}
		return nil
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("scan %T as a time", v)
	}
	for _, layout := range sqliteTimeFormats {
		if at, err := time.ParseInLocation(layout, text, time.UTC); err == nil {
			t.Time = at
			return nil
		}
	}
	return fmt.Errorf("scan %q as a time: not a time the database writes", text)
}

// QueueNotice writes n to the outbox unless the account already has its
// notice of that week; it answers the week's notice either way.
func QueueNotice(ctx context.Context, db *gorm.DB, n *DeprecationNotice) (*DeprecationNotice, error) {
	if n.ID == "" {
		n.ID = NewID("ntc_")
	}
	if n.Status == "" {
		n.Status = NoticePending
	}
	if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(n).Error; err != nil {
		return nil, fmt.Errorf("queue notice: %w", err)
	}
	var got DeprecationNotice
	if err := db.WithContext(ctx).Take(&got, "user_id = ? AND week = ?", n.UserID, n.Week).Error; err != nil {
		return nil, fmt.Errorf("read notice: %w", err)
	}
	return &got, nil
}

// NoticeByID finds a notice.
func NoticeByID(ctx context.Context, db *gorm.DB, id string) (*DeprecationNotice, error) {
	var n DeprecationNotice
	err := db.WithContext(ctx).Take(&n, "id = ?", id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("notice %s: %w", id, ErrNotFound)
	}
	return &n, err
}

// MarkNoticeSent records that a notice went out.
func MarkNoticeSent(ctx context.Context, db *gorm.DB, id string, at time.Time) error {
	return db.WithContext(ctx).Model(&DeprecationNotice{}).Where("id = ? AND status = ?", id, NoticePending).
		Updates(map[string]any{"status": NoticeSent, "sent_at": at}).Error
}
