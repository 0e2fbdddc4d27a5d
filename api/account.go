package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

type accountHandlers struct {
	db  *gorm.DB
	now func() time.Time
}

// registerAccount adds the account reads (scope account:read, from Scopes)
// and the panel-only account routes, which answer session_required to keys.
func registerAccount(v1 *gin.RouterGroup, d *Deps, l *limiter) {
	h := &accountHandlers{db: d.DB, now: d.now}
	v1.GET("/account/balance", h.balance)
	v1.GET("/account/limits", l.limits(d.now))
	v1.GET("/account/usage", h.usage)
	v1.GET("/account/requests", h.requests)
	v1.GET("/account/metrics", h.metrics)
	for _, s := range sessionRoutes() {
		v1.Handle(s.Method, strings.TrimPrefix(ginPath(s.Path), "/v1"), sessionOnly)
	}
}

// sessionOnly stands for a panel route: authorize refuses every request to
// it before this runs, as the service has no panel sessions of its own
// (the admin commands stand in for the panel).
func sessionOnly(c *gin.Context) { fail(c, apierr.New(apierr.SessionRequired, "")) }

// balance answers GET /v1/account/balance.
func (h *accountHandlers) balance(c *gin.Context) {
	now := h.now()
	bals, err := models.Balances(c.Request.Context(), h.db, identityOf(c).user.ID, now)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"balances": bals, "as_of": now})
}
