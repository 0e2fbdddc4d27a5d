package panelapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/spendlimits"
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

// SpendLimitViewOf is the view of a limit with its spend (the panel's
// pages list them too).
func SpendLimitViewOf(s models.SpendStatus) SpendLimitView { return spendLimitView(s) }

func spendLimitView(s models.SpendStatus) SpendLimitView {
	v := SpendLimitView{ID: spendlimits.PublicID(s.ID), Scope: s.Scope(), Period: s.Period,
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

// spendLimits is the spend limits use case on the API's dependencies.
func (p *Handlers) spendLimits() *spendlimits.Service {
	return &spendlimits.Service{DB: p.DB, Now: p.now}
}

// ListSpendLimits answers GET /v1/account/spend-limits: the account's
// limits and their keys', each with its period's spend.
func (p *Handlers) ListSpendLimits(c *gin.Context) {
	limits, err := p.spendLimits().List(c.Request.Context(), middleware.IdentityOf(c).User.ID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	out := make([]SpendLimitView, len(limits))
	for i, l := range limits {
		out[i] = spendLimitView(l)
	}
	c.JSON(http.StatusOK, gin.H{"items": out})
}

// SetSpendLimit answers PUT /v1/account/spend-limits: it sets the limit of
// the account (or of api_key_id), period and credit type to credits.
func (p *Handlers) SetSpendLimit(c *gin.Context) {
	var body spendLimitBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	l := spendlimits.Limit{Period: body.Period, CreditType: body.CreditType, Credits: body.Credits}
	if body.APIKeyID != nil {
		l.APIKeyID = *body.APIKeyID
	}
	set, err := p.spendLimits().Set(c.Request.Context(), middleware.IdentityOf(c).User.ID, l)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, spendLimitView(set))
}

// ClearSpendLimit answers DELETE /v1/account/spend-limits/{limit_id}: the
// limit no longer applies; it answers the limit as it was.
func (p *Handlers) ClearSpendLimit(c *gin.Context) {
	l, err := p.spendLimits().Clear(c.Request.Context(), middleware.IdentityOf(c).User.ID, c.Param("limit_id"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, spendLimitView(l))
}
