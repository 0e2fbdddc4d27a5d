// Package spendlimits is the use case of an account's spend limits, apart
// from HTTP: listing them with their period's spend, setting one (of the
// account or of one of its keys, per period and credit type) and clearing
// one by its public id. Holds enforce them (models.Admit,
// models.CreateBatch); the events they send are the events package's.
package spendlimits

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// Prefix starts a spend limit's public id (as admin limit set prints it).
const Prefix = "limit_"

// PublicID is the public id of limit id.
func PublicID(id uint64) string { return Prefix + strconv.FormatUint(id, 10) }

// Service reads and changes the spend limits of accounts.
type Service struct {
	DB *gorm.DB
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// List is the account's limits and its keys', each with its period's
// spend.
func (s *Service) List(ctx context.Context, userID uint64) ([]models.SpendStatus, error) {
	return models.SpendLimits(ctx, s.DB, userID, s.now())
}

// Limit is a limit to set: of the account (APIKeyID empty) or one of its
// keys, per period and credit type (nil: service credits), to Credits
// (nil: missing).
type Limit struct {
	APIKeyID   string
	Period     string
	CreditType *string
	Credits    *int64
}

// Set sets limit l of account userID and answers it with its spend. A bad
// period, credit type or amount, or a key the account does not have,
// answers the apierr naming the field.
func (s *Service) Set(ctx context.Context, userID uint64, l Limit) (models.SpendStatus, error) {
	ctype := contract.CreditService
	if l.CreditType != nil {
		ctype = *l.CreditType
	}
	switch {
	case !slices.Contains(contract.SpendPeriods, l.Period):
		return models.SpendStatus{}, apierr.Newf(apierr.InvalidOption, "period is one of %s.",
			strings.Join(contract.SpendPeriods, ", ")).WithField("period")
	case !slices.Contains(contract.CreditTypes, ctype):
		return models.SpendStatus{}, apierr.Newf(apierr.InvalidOption, "credit_type is one of %s.",
			strings.Join(contract.CreditTypes, ", ")).WithField("credit_type")
	case l.Credits == nil || *l.Credits < 0:
		return models.SpendStatus{}, apierr.New(apierr.InvalidRequest, "credits is required: 0 or more.").
			WithField("credits")
	}
	set, err := models.SetSpendLimit(ctx, s.DB, models.SpendLimit{UserID: userID, APIKeyID: l.APIKeyID,
		CreditType: ctype, Period: l.Period, Credits: *l.Credits})
	if errors.Is(err, models.ErrNotFound) {
		return models.SpendStatus{}, apierr.New(apierr.NotFound, "The account has no key with this id.").
			WithField("api_key_id")
	}
	if err != nil {
		return models.SpendStatus{}, err
	}
	out, ok, err := s.own(ctx, userID, set.ID)
	if err == nil && !ok {
		err = fmt.Errorf("spend limit %d not listed", set.ID)
	}
	return out, err
}

// Clear makes the account's limit publicID no longer apply and answers it
// as it was; an id the account has no limit with answers 404 not_found.
func (s *Service) Clear(ctx context.Context, userID uint64, publicID string) (models.SpendStatus, error) {
	notFound := apierr.New(apierr.NotFound, "The account has no spend limit with this id.").WithField("limit_id")
	raw, found := strings.CutPrefix(publicID, Prefix)
	n, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || !found {
		return models.SpendStatus{}, notFound
	}
	l, ok, err := s.own(ctx, userID, n)
	if err == nil && !ok {
		err = notFound
	}
	if err != nil {
		return models.SpendStatus{}, err
	}
	if _, err := models.ClearSpendLimit(ctx, s.DB, l.UserID, l.APIKeyID, l.CreditType, l.Period); err != nil {
		return models.SpendStatus{}, err
	}
	return l, nil
}

// own is the account's limit with id, with its spend; ok is false when the
// account has none with it.
func (s *Service) own(ctx context.Context, userID, id uint64) (models.SpendStatus, bool, error) {
	limits, err := s.List(ctx, userID)
	if err != nil {
		return models.SpendStatus{}, false, err
	}
	for _, l := range limits {
		if l.ID == id {
			return l, true, nil
		}
	}
	return models.SpendStatus{}, false, nil
}
