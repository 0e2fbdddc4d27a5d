package api

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

// serviceVersion decides the contract version of a request: the
// Service-Version header when sent, else the version pinned to the key's
// account, else the current one; it is echoed in Service-Version. A header
// that is not a YYYY-MM-DD date, or names no known version, answers 400
// unsupported_version. It runs after identify, which finds the account.
func serviceVersion() gin.HandlerFunc {
	return func(c *gin.Context) {
		v := versionOf(c)
		c.Header("Service-Version", v)
		if h, sent := c.Request.Header["Service-Version"]; sent {
			if len(h) != 1 {
				fail(
					c,
					apierr.New(apierr.UnsupportedVersion, "Send one Service-Version header.").
						WithField("Service-Version"),
				)
				return
			}
			if _, err := time.Parse(time.DateOnly, h[0]); err != nil {
				fail(
					c,
					apierr.Newf(apierr.UnsupportedVersion, "Service-Version must be a date written YYYY-MM-DD, not %q.", h[0]).
						WithField("Service-Version"),
				)
				return
			}
			if !knownVersion(h[0]) {
				fail(
					c,
					apierr.Newf(apierr.UnsupportedVersion, "%s is not a contract version; the current one is %s.", h[0],
						CurrentVersion).
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

// versionOf is the contract version the request is served under; before
// serviceVersion has run (an early error), the account's pin or the current.
func versionOf(c *gin.Context) string {
	if v := c.GetString(versionKey); v != "" {
		return v
	}
	if id := identityOf(c); id != nil && knownVersion(id.user.ServiceVersion) {
		return id.user.ServiceVersion
	}
	return CurrentVersion
}

// dated is the one place where behaviour that depends on the contract
// version is decided: each decision is a method, and handlers ask
// contractOf(c) instead of comparing dates themselves. A breaking change to
// shared behaviour adds a version to contract.VersionHistory (which writes
// its changelog entry) and a method here.
type dated struct{ version string }

// creditsAtTop says whether the error object carries required and balance
// at its top level (from contract.VersionCreditsAtTop on, as the spec's
// error object has them; ctx holds them in every version).
func (k dated) creditsAtTop() bool { return contract.CreditsAtTop(k.version) }

// errorObject writes an error object as the contract has it.
func (k dated) errorObject(e *apierr.Error) {
	if !k.creditsAtTop() {
		e.Required, e.Balance = nil, nil
	}
}

// jobError writes a job's stored error object as the contract has it.
func (k dated) jobError(raw json.RawMessage) json.RawMessage { return wire.ErrorIn(raw, k.version) }

// contractOf is the contract a request is served under.
func contractOf(c *gin.Context) dated { return dated{version: versionOf(c)} }

// Version is the dated version, as echoed in Service-Version.
func (k dated) Version() string { return k.version }

// atLeast says whether the contract is v or later (dates compare as text).
func (k dated) atLeast(v string) bool { return k.version >= v }
