package middleware

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// SessionCookie is the cookie that carries a panel session's token.
const SessionCookie = "tp_session"

// Sessions admits the routes of the account panel: a signed-in session,
// never a key, and for a state-changing request only from the panel's own
// origin.
type Sessions struct {
	db   *gorm.DB
	now  func() time.Time
	csrf *http.CrossOriginProtection
}

// NewSessions admits the panel's sessions stored on db.
func NewSessions(db *gorm.DB, now func() time.Time) *Sessions {
	return &Sessions{db: db, now: now, csrf: http.NewCrossOriginProtection()}
}

// Admit checks a request to a session route and, when it may go on, sets
// its identity to the signed-in user (no key).
func (s *Sessions) Admit(c *gin.Context) error {
	if IdentityOf(c) != nil {
		return apierr.New(
			apierr.SessionRequired,
			"This is done in the account panel with a signed-in session; API keys are refused here.",
		)
	}
	if err := s.csrf.Check(c.Request); err != nil {
		return apierr.New(apierr.PermissionDenied, "Cross-origin requests are refused; use the account panel itself.")
	}
	token, _ := c.Cookie(SessionCookie)
	user, _, err := models.SessionUser(c.Request.Context(), s.db, token, s.now())
	if errors.Is(err, models.ErrNoSession) {
		return apierr.New(apierr.SessionRequired, "Sign in to the account panel; this route needs a signed-in session.")
	}
	if err != nil {
		return err
	}
	c.Set(keyCtxKey, &Identity{User: user})
	return nil
}

// KeyID is the id of the key a request acts with; empty for a panel
// session (a job it starts is started in the app).
func (id *Identity) KeyID() string {
	if id.Key == nil {
		return ""
	}
	return id.Key.ID
}
