package models

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/taskplatform/taskplatform/contract"
)

// SpendLimit is the most credits of one type an account, or one of its API
// keys (APIKeyID set), may spend in a UTC day or month (migration
// 0017_spend_limits). A job spends its hold while it runs and its charge
// once settled, in the period it was admitted in; Admit refuses a job whose
// hold would take the period past the limit.
type SpendLimit struct {
	ID         uint64 `gorm:"primaryKey"`
	UserID     uint64 `gorm:"not null;uniqueIndex:idx_spend_limits_scope,priority:1"`
	APIKeyID   string `gorm:"not null;default:'';uniqueIndex:idx_spend_limits_scope,priority:2"`
	CreditType string `gorm:"not null;uniqueIndex:idx_spend_limits_scope,priority:3"`
	Period     string `gorm:"not null;uniqueIndex:idx_spend_limits_scope,priority:4"`
	Credits    int64  `gorm:"not null"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Scope is contract.SpendKey for a key's limit, else contract.SpendAccount.
func (l *SpendLimit) Scope() string {
	if l.APIKeyID != "" {
		return contract.SpendKey
	}
	return contract.SpendAccount
}

// SpendThreshold records that a limit's spend reached Percent of it in the
// period starting at PeriodStart: its unique index makes the threshold's
// spend.threshold event once per limit, period and percent. ID is the
// event's id; the other fields are the event's body as it was crossed, so
// a retried emit sends the same body.
type SpendThreshold struct {
	ID          string    `gorm:"primaryKey"`
	LimitID     uint64    `gorm:"not null;uniqueIndex:idx_spend_thresholds_once,priority:1"`
	Window      string    `gorm:"not null;uniqueIndex:idx_spend_thresholds_once,priority:2"`
	Percent     int       `gorm:"not null;uniqueIndex:idx_spend_thresholds_once,priority:3"`
	UserID      uint64    `gorm:"not null"`
	JobID       string    `gorm:"not null;index"`
	APIKeyID    string    `gorm:"not null;default:''"`
	CreditType  string    `gorm:"not null"`
	Period      string    `gorm:"not null"`
	Limit       int64     `gorm:"column:limit_credits;not null"`
	Spent       int64     `gorm:"not null"`
	PeriodStart time.Time `gorm:"not null"`
	ResetsAt    time.Time `gorm:"not null"`
	CreatedAt   time.Time `gorm:"not null"`
}

// Scope is contract.SpendKey for a key's limit, else contract.SpendAccount.
func (s *SpendThreshold) Scope() string {
	if s.APIKeyID != "" {
		return contract.SpendKey
	}
	return contract.SpendAccount
}

// ErrSpendLimitInvalid is a limit with an unknown period or credit type, or
// negative credits.
var ErrSpendLimitInvalid = errors.New("invalid spend limit")

// SetSpendLimit sets (creates or replaces) the limit of l's account or key,
// credit type and period to l.Credits. A key must be one of the account's
// (ErrNotFound otherwise).
func SetSpendLimit(ctx context.Context, db *gorm.DB, l SpendLimit) (*SpendLimit, error) {
	switch {
	case !slices.Contains(contract.SpendPeriods, l.Period):
		return nil, fmt.Errorf("%w: period %q is not one of %v", ErrSpendLimitInvalid, l.Period, contract.SpendPeriods)
	case !slices.Contains(contract.CreditTypes, l.CreditType):
		return nil, fmt.Errorf("%w: credit type %q is not one of %v", ErrSpendLimitInvalid, l.CreditType,
			contract.CreditTypes)
	case l.Credits < 0:
		return nil, fmt.Errorf("%w: credits must be 0 or more, got %d", ErrSpendLimitInvalid, l.Credits)
	}
	db = db.WithContext(ctx)
	if l.APIKeyID != "" {
		var n int64
		if err := db.Model(&APIKey{}).Where("id = ? AND user_id = ?", l.APIKeyID, l.UserID).Count(&n).Error; err != nil {
			return nil, fmt.Errorf("read key %s: %w", l.APIKeyID, err)
		}
		if n == 0 {
			return nil, fmt.Errorf("key %s: %w", l.APIKeyID, ErrNotFound)
		}
	}
	now := time.Now().UTC()
	row := SpendLimit{UserID: l.UserID, APIKeyID: l.APIKeyID, CreditType: l.CreditType, Period: l.Period,
		Credits: l.Credits, CreatedAt: now, UpdatedAt: now}
	err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "user_id"}, {Name: "api_key_id"}, {Name: "credit_type"}, {Name: "period"}},
		DoUpdates: clause.Assignments(map[string]any{"credits": l.Credits, "updated_at": now}),
	}).Create(&row).Error
	if err != nil {
		return nil, fmt.Errorf("set spend limit: %w", err)
	}
	var out SpendLimit
	err = db.Where("user_id = ? AND api_key_id = ? AND credit_type = ? AND period = ?", l.UserID, l.APIKeyID,
		l.CreditType, l.Period).Take(&out).Error
	return &out, err
}

// ClearSpendLimit removes the limit of an account (apiKeyID empty) or key,
// credit type and period; it reports whether there was one.
func ClearSpendLimit(ctx context.Context, db *gorm.DB, userID uint64, apiKeyID, creditType, period string) (bool,
	error) {
	res := db.WithContext(ctx).Where("user_id = ? AND api_key_id = ? AND credit_type = ? AND period = ?", userID,
		apiKeyID, creditType, period).Delete(&SpendLimit{})
	if res.Error != nil {
		return false, fmt.Errorf("clear spend limit: %w", res.Error)
	}
	return res.RowsAffected > 0, nil
}

// SpendStatus is a limit with what its current period has spent.
type SpendStatus struct {
	SpendLimit
	Spent    int64
	ResetsAt time.Time
}

// SpendLimits lists an account's limits (the account's first, then each
// key's) with their current period's spend at now.
func SpendLimits(ctx context.Context, db *gorm.DB, userID uint64, now time.Time) ([]SpendStatus, error) {
	var limits []SpendLimit
	err := db.WithContext(ctx).Where("user_id = ?", userID).
		Order("api_key_id, credit_type, CASE WHEN period = 'day' THEN 0 ELSE 1 END").Find(&limits).Error
	if err != nil {
		return nil, fmt.Errorf("read spend limits: %w", err)
	}
	out := make([]SpendStatus, 0, len(limits))
	for _, l := range limits {
		spent, err := periodSpend(db.WithContext(ctx), &l, now)
		if err != nil {
			return nil, err
		}
		out = append(out, SpendStatus{SpendLimit: l, Spent: spent, ResetsAt: contract.PeriodEnd(l.Period, now)})
	}
	return out, nil
}

// periodSpend is what the jobs counted by l, admitted in the period of now,
// hold (while unsettled) or were charged (once settled).
func periodSpend(tx *gorm.DB, l *SpendLimit, now time.Time) (int64, error) {
	spent, err := spends(tx, l.UserID, l.CreditType, []SpendLimit{*l}, now)
	if err != nil {
		return 0, err
	}
	return spent[0], nil
}

// jobSpend is what one job spends: its hold while open, its charge once
// settled.
const jobSpend = "CASE WHEN settled_at IS NULL THEN held_credits ELSE charged_credits END"

// spends reads what each limit's period (at now) has spent, in one pass
// over the account's jobs of the type admitted since the earliest period
// starts (a limit of a key counts that key's jobs only).
func spends(tx *gorm.DB, userID uint64, creditType string, limits []SpendLimit, now time.Time) ([]int64, error) {
	if len(limits) == 0 {
		return nil, nil
	}
	cols := make([]string, len(limits))
	var args []any
	from := now
	for i, l := range limits {
		start := contract.PeriodStart(l.Period, now)
		if start.Before(from) {
			from = start
		}
		cond := "created_at >= ?"
		args = append(args, start)
		if l.APIKeyID != "" {
			cond += " AND api_key_id = ?"
			args = append(args, l.APIKeyID)
		}
		cols[i] = "COALESCE(SUM(CASE WHEN " + cond + " THEN " + jobSpend + " ELSE 0 END), 0)"
	}
	args = append(args, userID, creditType, from)
	row := tx.Raw("SELECT "+strings.Join(cols, ", ")+
		" FROM jobs WHERE user_id = ? AND credit_type = ? AND created_at >= ?", args...).Row()
	out := make([]int64, len(limits))
	dest := make([]any, len(limits))
	for i := range out {
		dest[i] = &out[i]
	}
	if err := row.Scan(dest...); err != nil {
		return nil, fmt.Errorf("read spend: %w", err)
	}
	return out, nil
}

// limitSpend is one limit that counts a job being admitted, with its
// period's spend before the job.
type limitSpend struct {
	limit SpendLimit
	spent int64
}

// hit is the refusal's account of ls refusing a hold of required credits.
func (ls *limitSpend) hit(required int64, now time.Time) *contract.SpendLimitHit {
	l := &ls.limit
	return &contract.SpendLimitHit{Scope: l.Scope(), APIKeyID: l.APIKeyID, Period: l.Period,
		CreditType: l.CreditType, Limit: l.Credits, Spent: ls.spent, Required: required,
		ResetsAt: contract.PeriodEnd(l.Period, now)}
}

// checkSpend reads, under the account's lock (Admit), the limits that count
// job and their spend; it answers the first limit the job's hold would
// pass (account limits first, days before months) with its spend, or nil
// and the limits for markThresholds.
func checkSpend(tx *gorm.DB, job *Job, now time.Time) (*limitSpend, []limitSpend, error) {
	if job.HeldCredits <= 0 {
		return nil, nil, nil
	}
	var limits []SpendLimit
	err := tx.Where("user_id = ? AND credit_type = ? AND (api_key_id = '' OR api_key_id = ?)", job.UserID,
		job.CreditType, job.APIKeyID).Order("api_key_id, CASE WHEN period = 'day' THEN 0 ELSE 1 END").Find(
		&limits).Error
	if err != nil {
		return nil, nil, fmt.Errorf("read spend limits: %w", err)
	}
	spent, err := spends(tx, job.UserID, job.CreditType, limits, now)
	if err != nil {
		return nil, nil, err
	}
	out := make([]limitSpend, 0, len(limits))
	for i, l := range limits {
		ls := limitSpend{limit: l, spent: spent[i]}
		if ls.spent+job.HeldCredits > l.Credits {
			return &ls, nil, nil
		}
		out = append(out, ls)
	}
	return nil, out, nil
}

// markThresholds records each threshold (contract.SpendThresholds) of
// each limit that the admitted job's hold brings the period's spend to,
// once per limit, period and threshold: a threshold recorded before in
// the period is left as it is.
func markThresholds(tx *gorm.DB, job *Job, limits []limitSpend, now time.Time) error {
	for _, ls := range limits {
		l := ls.limit
		if l.Credits <= 0 {
			continue
		}
		after := ls.spent + job.HeldCredits
		for _, pct := range contract.SpendThresholds {
			if after*100 < int64(pct)*l.Credits {
				break
			}
			if err := recordThreshold(tx, &l, job.ID, pct, after, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// markLimitReached records the 100 % threshold of limit l when it refuses
// the hold of job jobID (spent is its period's spend, without the hold):
// a limit that stops submits says so, once per limit and period like
// every threshold, though a hold seldom lands on it exactly. A limit of
// zero says so too: it refuses every hold.
func markLimitReached(tx *gorm.DB, l *SpendLimit, jobID string, spent int64, now time.Time) error {
	return recordThreshold(tx, l, jobID, reachedPercent, spent, now)
}

// reachedPercent is the threshold of a limit reached: its last.
const reachedPercent = 100

// recordThreshold records that job jobID took limit l's period to pct %
// (spent), unless that threshold of the period is recorded already.
func recordThreshold(tx *gorm.DB, l *SpendLimit, jobID string, pct int, spent int64, now time.Time) error {
	start := contract.PeriodStart(l.Period, now)
	row := SpendThreshold{ID: NewID("evt_"), LimitID: l.ID, Window: l.Period + ":" + start.Format(time.DateOnly),
		Percent: pct, UserID: l.UserID, JobID: jobID, APIKeyID: l.APIKeyID, CreditType: l.CreditType,
		Period: l.Period, Limit: l.Credits, Spent: spent, PeriodStart: start,
		ResetsAt: contract.PeriodEnd(l.Period, now), CreatedAt: now}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return fmt.Errorf("record spend threshold: %w", err)
	}
	return nil
}

// ThresholdsOfJob lists the spend thresholds the job's admit crossed (or,
// for a refused job, the 100 % its refusal recorded), in the order they
// were recorded.
func ThresholdsOfJob(ctx context.Context, db *gorm.DB, jobID string) ([]SpendThreshold, error) {
	var out []SpendThreshold
	err := db.WithContext(ctx).Where("job_id = ?", jobID).Order("limit_id, percent").Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("read spend thresholds of %s: %w", jobID, err)
	}
	return out, nil
}

// copySpendLimits gives the key to a rolled key's limits (RollKey): the
// successor is held to what the key it replaces was; its period's spend
// counts its own jobs.
func copySpendLimits(tx *gorm.DB, userID uint64, from, to string, now time.Time) error {
	var limits []SpendLimit
	if err := tx.Where("user_id = ? AND api_key_id = ?", userID, from).Find(&limits).Error; err != nil {
		return fmt.Errorf("read spend limits of %s: %w", from, err)
	}
	for _, l := range limits {
		l.ID, l.APIKeyID, l.CreatedAt, l.UpdatedAt = 0, to, now, now
		if err := tx.Create(&l).Error; err != nil {
			return fmt.Errorf("copy spend limit to %s: %w", to, err)
		}
	}
	return nil
}
