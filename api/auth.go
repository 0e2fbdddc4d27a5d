package api

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

const keyCtxKey = "identity"

// Scopes named by the routes.
const (
	scopeTasksRun    = models.ScopeTasksRun
	scopeJobsRead    = models.ScopeJobsRead
	scopeJobsCancel  = models.ScopeJobsCancel
	scopeAccountRead = models.ScopeAccountRead
)

// identity is who a keyed request acts as.
type identity struct {
	key  *models.APIKey
	user *models.User
}

type authenticator struct {
	db  *gorm.DB
	now func() time.Time
	// limits counts the refused keys against the calling address.
	limits *limiter
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

// identify checks a key when one is sent, on every route, keyless reads
// included; routes that need a key add require.
func (a *authenticator) identify() gin.HandlerFunc {
	return func(c *gin.Context) {
		secret, sent, err := presentedKey(c)
		if err != nil {
			a.limits.refuse(c, err)
			return
		}
		if !sent {
			c.Next()
			return
		}
		if c.GetHeader("Origin") != "" {
			a.limits.refuse(c, apierr.New(apierr.APIKeyNotAllowedHere, ""))
			return
		}
		key, user, err := models.SecretKeyAuth(c.Request.Context(), a.db, secret, a.now())
		if errors.Is(err, models.ErrKeyInvalid) {
			a.limits.refuse(c, apierr.New(apierr.InvalidAPIKey, ""))
			return
		}
		if err != nil {
			fail(c, err)
			return
		}
		c.Set(keyCtxKey, &identity{key: key, user: user})
		c.Next()
	}
}

// refusal answers an error to a request refused before it is identified.
type refusal func(c *gin.Context, err error)

// refuseEarly answers err to a request refused before identify and the rate
// limit run (headers too large, plain HTTP, unreadable headers, a body over
// the limit). The call still counts, as every call does: against its key
// when it carries a valid one, else against the calling address (a keyless
// operator probe counts against nothing), so the answer carries
// X-RateLimit-Limit, -Remaining and -Reset like any other. One call over
// the limit answers 429 rate_limited instead, as a refused key does, so
// keys cannot be tried through early refusals beyond the address's limit.
func (a *authenticator) refuseEarly(c *gin.Context, err error) {
	if subject, ok := a.earlySubject(c); ok {
		if over := a.limits.count(c, subject); over != nil {
			err = over
		}
	}
	fail(c, err)
}

// earlySubject is what a request refused before identify counts against:
// its key when it presents one valid key (without an Origin, and none of
// singleHeaders sent twice), else the calling address; false for a keyless
// operator probe or without a database.
func (a *authenticator) earlySubject(c *gin.Context) (string, bool) {
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
	id := identityOf(c)
	if id == nil {
		return apierr.New(apierr.Unauthenticated, "")
	}
	plan := models.PlanOf(id.user.Plan)
	if !plan.APIAccess {
		return apierr.New(apierr.APIAccessNotIncluded, "")
	}
	if !id.key.HasScope(scope) {
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

// authorize enforces what the matched route's row of the route table needs.
// Unmatched paths (404, 405) pass through to their handlers.
func authorize(reg *tasks.Registry, sess *sessions) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.FullPath() == "" {
			c.Next()
			return
		}
		rs, ok := scopeOf(c.Request.Method, c.FullPath())
		switch {
		case !ok:
			logger(
				c,
			).Error("route has no row in the route table (api/routes.go); refused", zap.String("route",
				c.Request.Method+" "+c.FullPath()))
			fail(c, apierr.New(apierr.Internal, ""))
		case rs.access == AccessSession:
			if err := sess.admit(c); err != nil {
				fail(c, err)
				return
			}
			c.Next()
		case rs.access == AccessKey:
			if err := checkKey(c, reg, rs.scope); err != nil {
				fail(c, err)
				return
			}
			c.Next()
		default:
			c.Next()
		}
	}
}

func identityOf(c *gin.Context) *identity {
	if v, ok := c.Get(keyCtxKey); ok {
		return v.(*identity)
	}
	return nil
}
