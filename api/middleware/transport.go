package middleware

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/enginehooks"
)

// operational says whether a path is an operator endpoint (probes and
// metrics) rather than part of the API: plain HTTP and the per-address rate
// limit do not apply to them, so probes from the platform keep working.
func operational(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == "/metrics"
}

// RequireTLS refuses plain HTTP in production: a request must arrive over
// TLS or from a trusted proxy (TP_TRUSTED_PROXIES) whose X-Forwarded-Proto
// ends in https (forwardedHTTPS); the header from any other peer is ignored. It
// answers insecure_transport (through refuse) and never redirects.
func RequireTLS(production bool, proxies []netip.Prefix, refuse Refusal) gin.HandlerFunc {
	return func(c *gin.Context) {
		r := c.Request
		secure := r.TLS != nil || (fromProxy(r, proxies) && forwardedHTTPS(r))
		if production && !secure && !operational(r.URL.Path) {
			refuse(c, apierr.New(apierr.InsecureTransport, ""))
			return
		}
		c.Next()
	}
}

// forwardedHTTPS says whether the last X-Forwarded-Proto value (the last
// element of the last header line) is https: the one the trusted proxy in
// front of the service appended. The values before it were sent by the
// client or by hops the service does not know, as with X-Forwarded-For.
func forwardedHTTPS(r *http.Request) bool {
	lines := r.Header.Values("X-Forwarded-Proto")
	if len(lines) == 0 {
		return false
	}
	last := lines[len(lines)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}

// ParseProxies reads TP_TRUSTED_PROXIES (IPs or CIDRs) into prefixes, as
// Gin's SetTrustedProxies reads the same list.
func ParseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an IP nor a CIDR", s)
		}
		a = a.Unmap().WithZone("")
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// fromProxy says whether the peer that sent r is one of the trusted proxies.
func fromProxy(r *http.Request, proxies []netip.Prefix) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	peer := ap.Addr().Unmap().WithZone("")
	for _, p := range proxies {
		if p.Contains(peer) {
			return true
		}
	}
	return false
}

// CheckDevListenAddr refuses a plain-HTTP dev listen address that is not on
// loopback: dev mode serves plain HTTP to this machine only.
func CheckDevListenAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("dev mode serves plain HTTP on loopback only: listen on 127.0.0.1 or [::1], not %q", addr)
}

// readHeaders are the request headers the service reads; the others are
// passed over whatever they hold.
var readHeaders = []string{
	"Authorization",
	"X-Api-Key",
	"Content-Type",
	"Idempotency-Key",
	"Prefer",
	"X-Service-Start-Timeout",
	"X-Service-Max-Credits",
	"Service-Version",
}

// singleHeaders are the headers that decide who is calling and from where:
// sent twice, one reader could take the first and another the last, so
// they are refused rather than read.
var singleHeaders = []string{"Authorization", "X-Api-Key", "Origin"}

// headerSentTwice says whether one of singleHeaders is sent more than once.
func headerSentTwice(h http.Header) bool {
	for _, name := range singleHeaders {
		if len(h.Values(name)) > 1 {
			return true
		}
	}
	return false
}

// CheckHeaders answers 400 malformed_request to a header the service reads
// but cannot (through refuse): a value that is not UTF-8, a Content-Type
// that does not parse, or one of singleHeaders sent more than once.
// X-Request-ID is never refused (an unusable one is ignored).
func CheckHeaders(refuse Refusal) gin.HandlerFunc {
	return func(c *gin.Context) {
		for _, name := range singleHeaders {
			if len(c.Request.Header.Values(name)) > 1 {
				refuse(
					c,
					apierr.Newf(apierr.MalformedRequest, "The %s header is sent more than once; send it once.", name).
						WithField(name),
				)
				return
			}
		}
		for _, name := range readHeaders {
			for _, v := range c.Request.Header.Values(name) {
				if !utf8.ValidString(v) {
					refuse(
						c,
						apierr.Newf(apierr.MalformedRequest, "The %s header is not valid UTF-8.", name).WithField(name),
					)
					return
				}
			}
		}
		if ct := c.GetHeader("Content-Type"); ct != "" {
			if _, _, err := mime.ParseMediaType(ct); err != nil {
				refuse(
					c,
					apierr.New(apierr.MalformedRequest, "The Content-Type header cannot be read.").
						WithField("Content-Type"),
				)
				return
			}
		}
		c.Next()
	}
}

// uploadRoutes take multipart bodies up to limits.upload.max_bytes.
var uploadRoutes = map[string]bool{"POST /v1/files": true}

// MultipartOverhead is the room left for multipart framing around an upload.
const MultipartOverhead = 64 << 10

// BodyLimit answers 413 body_too_large (through refuse) at once when
// Content-Length is over the limit, and caps every other body (chunked ones
// included) so that a handler reading it stops at the limit instead of
// reading it whole.
func BodyLimit(refuse Refusal) gin.HandlerFunc {
	lim := contract.DefaultLimits()
	return func(c *gin.Context) {
		limit, code := lim.Request.MaxBodyBytes, apierr.BodyTooLarge
		switch route := c.Request.Method + " " + RoutePattern(c.FullPath()); {
		case uploadRoutes[route]:
			limit, code = lim.Upload.MaxBytes+MultipartOverhead, apierr.FileTooLarge
		case route == batchRoute:
			limit = lim.Batches.MaxBodyBytes
		case route == engineHookRoute:
			limit = enginehooks.MaxBytes
		}
		if c.Request.ContentLength > limit {
			c.Header("Connection", "close")
			refuse(c, apierr.New(code, ""))
			return
		}
		if c.Request.Body != nil && c.Request.Body != http.NoBody {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		}
		c.Next()
	}
}

// hasBody says whether the request carries a body.
func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

// JSONMediaType says whether a Content-Type is JSON.
func JSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// RequireJSON answers 415 unsupported_media_type to a body that is not JSON
// (uploads may also be multipart/form-data).
func RequireJSON() gin.HandlerFunc {
	return func(c *gin.Context) {
		if !hasBody(c.Request) || c.FullPath() == "" {
			c.Next()
			return
		}
		ct := c.GetHeader("Content-Type")
		if JSONMediaType(ct) {
			c.Next()
			return
		}
		if mt, _, _ := mime.ParseMediaType(ct); mt == "multipart/form-data" &&
			uploadRoutes[c.Request.Method+" "+RoutePattern(c.FullPath())] {
			c.Next()
			return
		}
		Fail(c, apierr.New(apierr.UnsupportedMediaType, "Send the body as Content-Type: application/json."))
	}
}

// ReadBody reads the whole (already capped) body: over the cap is 413
// body_too_large, a broken stream is 400 malformed_request.
func ReadBody(c *gin.Context) ([]byte, error) {
	if c.Request.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(c.Request.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		c.Header("Connection", "close")
		return nil, apierr.New(apierr.BodyTooLarge, "")
	}
	if err != nil {
		return nil, apierr.New(apierr.MalformedRequest, "The body could not be read.")
	}
	return body, nil
}

// RoutePattern writes a Gin route (":id", "*path") the way the table does
// ("{id}").
func RoutePattern(ginPath string) string {
	parts := strings.Split(ginPath, "/")
	for i, p := range parts {
		if p != "" && (p[0] == ':' || p[0] == '*') {
			parts[i] = "{" + p[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// batchRoute is the route of a batch submit, whose body may be larger
// than a submit's (limits.batches.max_body_bytes).
const batchRoute = "POST /v1/batches"

// engineHookRoute is the route of engineHook, whose bodies may be longer
// than other requests' (enginehooks.MaxBytes).
const engineHookRoute = "POST /engines/predictions/{prediction_id}/{token}"

// ReadJSONBody reads a JSON body within the size limit: 415 for another
// media type, 413 body_too_large over the limit (see readBody).
func ReadJSONBody(c *gin.Context, limit int64) ([]byte, error) {
	if !JSONMediaType(c.GetHeader("Content-Type")) {
		return nil, apierr.New(apierr.UnsupportedMediaType, "Send the task input as Content-Type: application/json.")
	}
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	}
	return ReadBody(c)
}
