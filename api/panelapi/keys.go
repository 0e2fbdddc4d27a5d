package panelapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"go.temporal.io/sdk/client"
)

// Handlers serve the account panel's JSON API (/v1/account/… with a
// signed-in session): keys, spend limits, webhook endpoints and their
// deliveries. The route table (api/routes_panel_*.go) routes to their
// methods; the front door has admitted the session before they run.
type Handlers struct {
	DB *gorm.DB
	// Temporal and TaskQueue start webhook deliveries (a test event, a
	// replay).
	Temporal  client.Client
	TaskQueue string
	// AllowPrivateURLs lets endpoint URLs reach private addresses (dev and
	// tests only).
	AllowPrivateURLs bool
	// WebhookEvents are the event kinds an endpoint may subscribe to.
	WebhookEvents []string
	Now           func() time.Time
}

func (p *Handlers) now() time.Time { return p.Now().UTC() }

// maxGraceSeconds bounds grace_period_seconds of a key roll (30 days).
const maxGraceSeconds = 30 * 24 * 3600

// KeyView is an API key as the panel lists it; it never holds the secret.
type KeyView struct {
	ID         string     `json:"id"`
	Name       *string    `json:"name"`
	Prefix     string     `json:"prefix"`
	Scopes     []string   `json:"scopes"`
	State      string     `json:"state"`
	ExpiresAt  *time.Time `json:"expires_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	ReplacedBy *string    `json:"replaced_by"`
	CreatedAt  time.Time  `json:"created_at"`
}

// NewKeyView is a key just created or rolled, with its secret, shown once.
type NewKeyView struct {
	KeyView
	Key string `json:"key"`
}

// KeyState is active, expired or revoked.
func KeyState(k *models.APIKey, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return "expired"
	}
	return "active"
}

func keyView(k *models.APIKey, now time.Time) KeyView {
	v := KeyView{
		ID:        k.ID,
		Name:      KeyName(k.Name),
		Prefix:    k.Hint,
		Scopes:    strings.Split(k.Scopes, ","),
		State:     KeyState(k, now),
		ExpiresAt: utc(k.ExpiresAt),
		RevokedAt: utc(k.RevokedAt),
		CreatedAt: k.CreatedAt.UTC(),
	}
	if k.ReplacedBy != "" {
		v.ReplacedBy = &k.ReplacedBy
	}
	return v
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// decodeBody reads a JSON object body into v; unknown fields are refused
// with field_not_accepted naming the field.
func decodeBody(c *gin.Context, v any) error {
	body, err := middleware.ReadJSONBody(c, 64<<10)
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return apierr.New(apierr.MalformedRequest, "The body is not a JSON object.")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return apierr.Newf(apierr.InvalidRequest, "%s has the wrong type.", te.Field).WithField(te.Field)
		}
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			name = strings.Trim(name, `"`)
			return apierr.Newf(apierr.FieldNotAccepted, "%s is not a field of this request.", name).WithField(name)
		}
		return apierr.New(apierr.MalformedRequest, "The body could not be read as this request's JSON.")
	}
	return nil
}

// keyCreateBody is the body of POST /v1/account/keys.
type keyCreateBody struct {
	Name      string     `json:"name"`
	Scopes    []string   `json:"scopes"`
	ExpiresAt *time.Time `json:"expires_at"`
}

// keyRenameBody is the body of PATCH /v1/account/keys/{key_id}.
type keyRenameBody struct {
	Name *string `json:"name"`
}

// keyNameError is the answer to a name KeyName refuses.
func keyNameError(err error) error {
	if errors.Is(err, models.ErrKeyNameTooLong) {
		return apierr.Newf(apierr.InvalidRequest, "name may have at most %d characters.", models.MaxKeyNameLen).
			WithField("name")
	}
	return err
}

// keyRollBody is the body of POST /v1/account/keys/{key_id}/roll.
type keyRollBody struct {
	GracePeriodSeconds *int64 `json:"grace_period_seconds"`
}

// ListKeys answers GET /v1/account/keys: every key of the account.
func (p *Handlers) ListKeys(c *gin.Context) {
	keys, err := models.KeysOfUser(c.Request.Context(), p.DB, middleware.IdentityOf(c).User.ID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	now := p.now()
	out := make([]KeyView, len(keys))
	for i := range keys {
		out[i] = keyView(&keys[i], now)
	}
	c.JSON(http.StatusOK, gin.H{"items": out})
}

// CreateKey answers POST /v1/account/keys with the new key, its secret
// shown once.
func (p *Handlers) CreateKey(c *gin.Context) {
	var body keyCreateBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	for _, s := range body.Scopes {
		if !slices.Contains(models.AllScopes, s) {
			middleware.Fail(
				c,
				apierr.Newf(apierr.InvalidOption, "Unknown scope %q; scopes are %s.", s, strings.Join(models.AllScopes, ", ")).
					WithField("scopes"),
			)
			return
		}
	}
	now := p.now()
	if body.ExpiresAt != nil && !body.ExpiresAt.After(now) {
		middleware.Fail(c, apierr.New(apierr.InvalidRequest, "expires_at must be in the future.").WithField("expires_at"))
		return
	}
	name, err := models.KeyName(body.Name)
	if err != nil {
		middleware.Fail(c, keyNameError(err))
		return
	}
	k, secret, err := models.CreateNamedKey(
		c.Request.Context(),
		p.DB,
		middleware.IdentityOf(c).User.ID,
		name,
		slices.Compact(slices.Sorted(slices.Values(body.Scopes))),
		utc(body.ExpiresAt),
		contract.CurrentVersion,
	)
	if errors.Is(err, models.ErrTooManyKeys) {
		err = apierr.Newf(
			apierr.TooManyAPIKeys,
			"The account has %d active API keys, the most it may (limits.api_keys.max_per_account of GET /v1/meta); "+
				"revoke one you no longer use, or roll a key instead of adding one.",
			contract.DefaultLimits().APIKeys.MaxPerAccount,
		)
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, NewKeyView{KeyView: keyView(k, now), Key: secret})
}

// ownKey is the account's key named in the path, or a 404.
func (p *Handlers) ownKey(c *gin.Context) (*models.APIKey, bool) {
	k, err := models.KeyOfUser(c.Request.Context(), p.DB, middleware.IdentityOf(c).User.ID, c.Param("key_id"))
	if errors.Is(err, models.ErrNotFound) {
		err = apierr.New(apierr.NotFound, "The account has no key with this id.").WithField("key_id")
	}
	if err != nil {
		middleware.Fail(c, err)
		return nil, false
	}
	return k, true
}

// RenameKey answers PATCH /v1/account/keys/{key_id} with the key under its
// new name; an empty name clears it.
func (p *Handlers) RenameKey(c *gin.Context) {
	var body keyRenameBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	if body.Name == nil {
		middleware.Fail(c, apierr.New(apierr.InvalidRequest, "name is required; an empty name clears it.").WithField("name"))
		return
	}
	k, err := models.RenameKey(c.Request.Context(), p.DB, middleware.IdentityOf(c).User.ID, c.Param("key_id"), *body.Name)
	if errors.Is(err, models.ErrNotFound) {
		err = apierr.New(apierr.NotFound, "The account has no key with this id.").WithField("key_id")
	}
	if err != nil {
		middleware.Fail(c, keyNameError(err))
		return
	}
	c.JSON(http.StatusOK, keyView(k, p.now()))
}

// RollKey answers POST /v1/account/keys/{key_id}/roll with the successor;
// the old key stays valid for grace_period_seconds.
func (p *Handlers) RollKey(c *gin.Context) {
	var body keyRollBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	if body.GracePeriodSeconds == nil || *body.GracePeriodSeconds < 0 || *body.GracePeriodSeconds > maxGraceSeconds {
		middleware.Fail(
			c,
			apierr.Newf(apierr.InvalidRequest, "grace_period_seconds is required: 0 to %d seconds.", maxGraceSeconds).
				WithField("grace_period_seconds"),
		)
		return
	}
	old, ok := p.ownKey(c)
	if !ok {
		return
	}
	now := p.now()
	k, secret, err := models.RollKey(
		c.Request.Context(),
		p.DB,
		old.ID,
		time.Duration(*body.GracePeriodSeconds)*time.Second,
		now,
		contract.CurrentVersion,
	)
	if errors.Is(err, models.ErrKeyInactive) {
		err = apierr.New(apierr.InvalidRequest, "A revoked or expired key cannot be rolled; create a new key.").
			WithField("key_id")
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	jobstream.KeyChanged(c.Request.Context(), p.DB, old.ID) // its streams end with its grace
	c.JSON(http.StatusCreated, NewKeyView{KeyView: keyView(k, now), Key: secret})
}

// RevokeKey answers DELETE /v1/account/keys/{key_id}: the key stops
// working at once and its event streams end; jobs it started run on.
func (p *Handlers) RevokeKey(c *gin.Context) {
	k, ok := p.ownKey(c)
	if !ok {
		return
	}
	now := p.now()
	if k.RevokedAt == nil {
		if err := models.RevokeKey(c.Request.Context(), p.DB, k.ID, now); err != nil &&
			!errors.Is(err, models.ErrNotFound) {
			middleware.Fail(c, err)
			return
		}
		jobstream.KeyChanged(c.Request.Context(), p.DB, k.ID)
	}
	k, ok = p.ownKey(c)
	if !ok {
		return
	}
	c.JSON(http.StatusOK, keyView(k, now))
}

// KeyName is a key's name as a KeyView carries it: nil when it has none, so
// a key without a name answers "name": null, never an empty string.
func KeyName(name string) *string { return nonEmpty(name) }

// nonEmpty is s, or nil for the empty string.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
