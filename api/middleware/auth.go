package middleware

import (
	"errors"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// Access says what a route needs from the caller.
type Access string

// The kinds of access a route can need.
const (
	// AccessPublic needs no key; a key that is sent is still checked.
	AccessPublic Access = "none"
	// AccessKey needs a key holding the route's scope, on a plan with API
	// access.
	AccessKey Access = "key"
	// AccessSession needs a signed-in panel session: every key is refused
	// with session_required.
	AccessSession Access = "session"
)

const keyCtxKey = "identity"

// Scopes named by the routes.
const (
	scopeTasksRun    = models.ScopeTasksRun
	scopeJobsRead    = models.ScopeJobsRead
	scopeJobsCancel  = models.ScopeJobsCancel
	scopeAccountRead = models.ScopeAccountRead
)

// Identity is who a keyed request acts as.
type Identity struct {
	Key  *models.APIKey
	User *models.User
}

// Authenticator identifies the caller: a key it checks on db, or none.
type Authenticator struct {
	db  *gorm.DB
	now func() time.Time
	// limits counts the refused keys against the calling address.
	limits *Limiter
}

// NewAuthenticator checks keys on db at now; limits counts the refused
// keys against the calling address.
func NewAuthenticator(db *gorm.DB, now func() time.Time, limits *Limiter) *Authenticator {
	return &Authenticator{db: db, now: now, limits: limits}
}

// presentedKey reads the key from Authorization (Key or Bearer) or x-api-key.
func presentedKey(c *gin.Context) (string, bool, error) {
	var found []string
	if h := c.GetHeader("Authorization"); h != "" {
		scheme, value, ok := strings.Cut(h, " ")
		if !ok || (!strings.EqualFold(scheme, "Key") && !strings.EqualFold(scheme, "Bearer")) {
			return "", true, apierr.New(
				apierr.InvalidAPIKey,
				"Authorization must be `Key <API_KEY>` or `Bearer <API_KEY>`.",
			)
		}
		found = append(found, strings.TrimSpace(value))
	}
	if h := c.GetHeader("x-api-key"); h != "" {
		found = append(found, strings.TrimSpace(h))
	}
	switch {
	case len(found) == 0:
		return "", false, nil
	case len(found) > 1 && found[0] != found[1]:
		return "", true, apierr.New(
			apierr.MalformedRequest,
			"Send the key in exactly one of Authorization and x-api-key.",
		)
	}
	return found[0], true, nil
}

// Identify checks a key when one is sent, on every route, keyless reads
// included; routes that need a key add require.
func (a *Authenticator) Identify() gin.HandlerFunc {
	return func(c *gin.Context) {
		secret, sent, err := presentedKey(c)
		if err != nil {
			a.limits.Refuse(c, err)
			return
		}
		if !sent {
			c.Next()
			return
		}
		if c.GetHeader("Origin") != "" {
			a.limits.Refuse(c, apierr.New(apierr.APIKeyNotAllowedHere, ""))
			return
		}
		key, user, err := models.SecretKeyAuth(c.Request.Context(), a.db, secret, a.now())
		if errors.Is(err, models.ErrKeyInvalid) {
			a.limits.Refuse(c, apierr.New(apierr.InvalidAPIKey, ""))
			return
		}
		if err != nil {
			Fail(c, err)
			return
		}
		c.Set(keyCtxKey, &Identity{Key: key, User: user})
		c.Next()
	}
}

// Refusal answers an error to a request refused before it is identified.
type Refusal func(c *gin.Context, err error)

// RefuseEarly answers err to a request refused before identify and the rate
// limit run (headers too large, plain HTTP, unreadable headers, a body over
// the limit). The call still counts, as every call does: against its key
// when it carries a valid one, else against the calling address (a keyless
// operator probe counts against nothing), so the answer carries
// X-RateLimit-Limit, -Remaining and -Reset like any other. One call over
// the limit answers 429 rate_limited instead, as a refused key does, so
// keys cannot be tried through early refusals beyond the address's limit.
func (a *Authenticator) RefuseEarly(c *gin.Context, err error) {
	if subject, ok := a.earlySubject(c); ok {
		if over := a.limits.Count(c, subject); over != nil {
			err = over
		}
	}
	Fail(c, err)
}

// earlySubject is what a request refused before identify counts against:
// its key when it presents one valid key (without an Origin, and none of
// singleHeaders sent twice), else the calling address; false for a keyless
// operator probe or without a database.
func (a *Authenticator) earlySubject(c *gin.Context) (string, bool) {
	if a.db == nil {
		return "", false
	}
	secret, sent, err := presentedKey(c)
	if err == nil && sent && c.GetHeader("Origin") == "" && !headerSentTwice(c.Request.Header) {
		if key, _, err := models.SecretKeyAuth(c.Request.Context(), a.db, secret, a.now()); err == nil {
			return "key:" + key.ID, true
		}
	}
	if !sent && operational(c.Request.URL.Path) {
		return "", false
	}
	return addressOf(c), true
}

// checkKey says why the request may not use a keyed route needing scope:
// no key, a plan without API access, a missing scope, or a task the plan
// does not run (routes naming a task in :name).
func checkKey(c *gin.Context, reg *tasks.Registry, scope string) error {
	id := IdentityOf(c)
	if id == nil {
		return apierr.New(apierr.Unauthenticated, "")
	}
	plan := models.PlanOf(id.User.Plan)
	if !plan.APIAccess {
		return apierr.New(apierr.APIAccessNotIncluded, "")
	}
	if !id.Key.HasScope(scope) {
		return apierr.Newf(apierr.ScopeMissing, "The key lacks the scope %s.", scope)
	}
	if name := c.Param("name"); name != "" && scope == scopeTasksRun {
		if def, err := reg.Lookup(name); err == nil && !plan.AllowsCategory(def.Category) {
			return apierr.Newf(
				apierr.PermissionDenied,
				"The account's plan does not run %s tasks such as %s.",
				def.Category,
				def.Name,
			)
		}
	}
	return nil
}

// Rule is what a route needs from its caller: its row of the route table
// (api/routes.go), found by method and Gin path; false for no row.
type Rule func(method, fullPath string) (access Access, scope string, ok bool)

// Authorize enforces what the matched route's row of the route table needs.
// Unmatched paths (404, 405) pass through to their handlers.
func Authorize(reg *tasks.Registry, sess *Sessions, rule Rule) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.FullPath() == "" {
			c.Next()
			return
		}
		access, scope, ok := rule(c.Request.Method, c.FullPath())
		switch {
		case !ok:
			Logger(
				c,
			).Error("route has no row in the route table (api/routes.go); refused", zap.String("route",
				c.Request.Method+" "+c.FullPath()))
			Fail(c, apierr.New(apierr.Internal, ""))
		case access == AccessSession:
			if err := sess.Admit(c); err != nil {
				Fail(c, err)
				return
			}
			c.Next()
		case access == AccessKey:
			if err := checkKey(c, reg, scope); err != nil {
				Fail(c, err)
				return
			}
			c.Next()
		default:
			c.Next()
		}
	}
}

func IdentityOf(c *gin.Context) *Identity {
	if v, ok := c.Get(keyCtxKey); ok {
		return v.(*Identity)
	}
	return nil
}

// SetIdentity makes id the caller of the request (as Identify and a panel
// session do).
func SetIdentity(c *gin.Context, id *Identity) { c.Set(keyCtxKey, id) }
