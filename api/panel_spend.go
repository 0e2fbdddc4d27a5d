package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// SpendLimitView is a spend limit as the panel lists it, with what its
// current period has spent.
type SpendLimitView struct {
	ID         string    `json:"id"`
	Scope      string    `json:"scope"`
	APIKeyID   *string   `json:"api_key_id"`
	Period     string    `json:"period"`
	CreditType string    `json:"credit_type"`
	Credits    int64     `json:"credits"`
	Spent      int64     `json:"spent"`
	ResetsAt   time.Time `json:"resets_at"`
}

// spendLimitPrefix starts a spend limit's public id (as admin limit set
// prints it).
const spendLimitPrefix = "limit_"

// SpendLimitViewOf is the view of a limit with its spend (the panel's
// pages list them too).
func SpendLimitViewOf(s models.SpendStatus) SpendLimitView { return spendLimitView(s) }

func spendLimitView(s models.SpendStatus) SpendLimitView {
	v := SpendLimitView{ID: spendLimitPrefix + strconv.FormatUint(s.ID, 10), Scope: s.Scope(), Period: s.Period,
		CreditType: s.CreditType, Credits: s.Credits, Spent: s.Spent, ResetsAt: s.ResetsAt.UTC()}
	if s.APIKeyID != "" {
		v.APIKeyID = &s.APIKeyID
	}
	return v
}

// spendLimitBody is the body of PUT /v1/account/spend-limits.
type spendLimitBody struct {
	APIKeyID   *string `json:"api_key_id"`
	Period     string  `json:"period"`
	CreditType *string `json:"credit_type"`
	Credits    *int64  `json:"credits"`
}

// listSpendLimits answers GET /v1/account/spend-limits: the account's
// limits and their keys', each with its period's spend.
func (p *panelHandlers) listSpendLimits(c *gin.Context) {
	limits, err := models.SpendLimits(c.Request.Context(), p.d.DB, identityOf(c).user.ID, p.d.now())
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]SpendLimitView, len(limits))
	for i, l := range limits {
		out[i] = spendLimitView(l)
	}
	c.JSON(http.StatusOK, gin.H{"items": out})
}

// setSpendLimit answers PUT /v1/account/spend-limits: it sets the limit of
// the account (or of api_key_id), period and credit type to credits.
func (p *panelHandlers) setSpendLimit(c *gin.Context) {
	var body spendLimitBody
	if err := decodeBody(c, &body); err != nil {
		fail(c, err)
		return
	}
	ctype := contract.CreditService
	if body.CreditType != nil {
		ctype = *body.CreditType
	}
	var keyID string
	if body.APIKeyID != nil {
		keyID = *body.APIKeyID
	}
	switch {
	case !slices.Contains(contract.SpendPeriods, body.Period):
		fail(c, apierr.Newf(apierr.InvalidOption, "period is one of %s.", strings.Join(contract.SpendPeriods, ", ")).
			WithField("period"))
		return
	case !slices.Contains(contract.CreditTypes, ctype):
		fail(c, apierr.Newf(apierr.InvalidOption, "credit_type is one of %s.", strings.Join(contract.CreditTypes,
			", ")).WithField("credit_type"))
		return
	case body.Credits == nil || *body.Credits < 0:
		fail(c, apierr.New(apierr.InvalidRequest, "credits is required: 0 or more.").WithField("credits"))
		return
	}
	ctx, userID := c.Request.Context(), identityOf(c).user.ID
	l, err := models.SetSpendLimit(ctx, p.d.DB, models.SpendLimit{UserID: userID, APIKeyID: keyID,
		CreditType: ctype, Period: body.Period, Credits: *body.Credits})
	if errors.Is(err, models.ErrNotFound) {
		err = apierr.New(apierr.NotFound, "The account has no key with this id.").WithField("api_key_id")
	}
	if err != nil {
		fail(c, err)
		return
	}
	p.answerSpendLimit(c, l.ID)
}

// ownSpendLimit is the account's limit with id, with its spend; ok is
// false when the account has none with it.
func (p *panelHandlers) ownSpendLimit(c *gin.Context, id uint64) (models.SpendStatus, bool, error) {
	limits, err := models.SpendLimits(c.Request.Context(), p.d.DB, identityOf(c).user.ID, p.d.now())
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

// answerSpendLimit answers the account's limit id with its spend.
func (p *panelHandlers) answerSpendLimit(c *gin.Context, id uint64) {
	l, ok, err := p.ownSpendLimit(c, id)
	if err == nil && !ok {
		err = fmt.Errorf("spend limit %d not listed", id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, spendLimitView(l))
}

// clearSpendLimit answers DELETE /v1/account/spend-limits/{limit_id}: the
// limit no longer applies; it answers the limit as it was.
func (p *panelHandlers) clearSpendLimit(c *gin.Context) {
	notFound := apierr.New(apierr.NotFound, "The account has no spend limit with this id.").WithField("limit_id")
	raw, found := strings.CutPrefix(c.Param("limit_id"), spendLimitPrefix)
	n, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || !found {
		fail(c, notFound)
		return
	}
	l, ok, err := p.ownSpendLimit(c, n)
	if err == nil && !ok {
		err = notFound
	}
	if err != nil {
		fail(c, err)
		return
	}
	_, err = models.ClearSpendLimit(c.Request.Context(), p.d.DB, l.UserID, l.APIKeyID, l.CreditType, l.Period)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, spendLimitView(l))
}
