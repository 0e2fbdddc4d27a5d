package middleware

import (
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

const versionKey = "service_version"

// knownVersion says whether v is a contract version a Service-Version header
// may name. The list is contract.Versions, the one list, served at GET /v1/meta.
func knownVersion(v string) bool { return contract.KnownVersion(v) }

// ServiceVersion decides the contract version of a request: the
// Service-Version header when sent, else the version pinned to the key's
// account, else the current one; it is echoed in Service-Version. A header
// that is not a YYYY-MM-DD date, or names no known version, answers 400
// unsupported_version. It runs after identify, which finds the account.
func ServiceVersion() gin.HandlerFunc {
	return func(c *gin.Context) {
		v := VersionOf(c)
		c.Header("Service-Version", v)
		if h, sent := c.Request.Header["Service-Version"]; sent {
			if len(h) != 1 {
				Fail(
					c,
					apierr.New(apierr.UnsupportedVersion, "Send one Service-Version header.").
						WithField("Service-Version"),
				)
				return
			}
			if _, err := time.Parse(time.DateOnly, h[0]); err != nil {
				Fail(
					c,
					apierr.Newf(apierr.UnsupportedVersion, "Service-Version must be a date written YYYY-MM-DD, not %q.", h[0]).
						WithField("Service-Version"),
				)
				return
			}
			if !knownVersion(h[0]) {
				Fail(
					c,
					apierr.Newf(apierr.UnsupportedVersion, "%s is not a contract version; the current one is %s.", h[0],
						contract.CurrentVersion).
						WithField("Service-Version"),
				)
				return
			}
			v = h[0]
			c.Header("Service-Version", v)
		}
		c.Set(versionKey, v)
		c.Next()
	}
}

// VersionOf is the contract version the request is served under; before
// ServiceVersion has run (an early error), the account's pin or the current.
func VersionOf(c *gin.Context) string {
	if v := c.GetString(versionKey); v != "" {
		return v
	}
	if id := IdentityOf(c); id != nil && knownVersion(id.User.ServiceVersion) {
		return id.User.ServiceVersion
	}
	return contract.CurrentVersion
}

// Dated is the one place where behaviour that depends on the contract
// version is decided: each decision is a method, and handlers ask
// ContractOf(c) instead of comparing dates themselves. A breaking change to
// shared behaviour adds a version to contract.VersionHistory (which writes
// its changelog entry) and a method here.
type Dated struct{ version string }

// CreditsAtTop says whether the error object carries required and balance
// at its top level (from contract.VersionCreditsAtTop on, as the spec's
// error object has them; ctx holds them in every version).
func (k Dated) CreditsAtTop() bool { return contract.CreditsAtTop(k.version) }

// ErrorObject writes an error object as the contract has it.
func (k Dated) ErrorObject(e *apierr.Error) {
	if !k.CreditsAtTop() {
		e.Required, e.Balance = nil, nil
	}
}

// JobError writes a job's stored error object as the contract has it.
func (k Dated) JobError(raw json.RawMessage) json.RawMessage { return wire.ErrorIn(raw, k.version) }

// ContractOf is the contract a request is served under.
func ContractOf(c *gin.Context) Dated { return Dated{version: VersionOf(c)} }

// Version is the dated version, as echoed in Service-Version.
func (k Dated) Version() string { return k.version }

// AtLeast says whether the contract is v or later (dates compare as text).
func (k Dated) AtLeast(v string) bool { return k.version >= v }
