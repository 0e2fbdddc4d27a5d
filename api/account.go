package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

type accountHandlers struct {
	db  *gorm.DB
	now func() time.Time
}

// balance answers GET /v1/account/balance.
func (h *accountHandlers) balance(c *gin.Context) {
	now := h.now()
	bals, err := models.Balances(c.Request.Context(), h.db, middleware.IdentityOf(c).User.ID, now)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"balances": bals, "as_of": now})
}
