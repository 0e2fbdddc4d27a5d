package middleware

import (
	"context"
	"go.uber.org/zap"
	"net"
	"net/http"
	"net/netip"

	"github.com/gin-gonic/gin"
)

// clientAddressKey holds, in a request's context, the calling address the
// front door read; requestIDCtxKey its req_ id.
type (
	clientAddressKey struct{}
	requestIDCtxKey  struct{}
)

// Front makes r the API's front door for what the process serves beside
// the API's routes (the account panel's pages): the same rules, answered in
// the same error object, before next runs — a key in the query string
// refused (and counted against the calling address by limits), the size of
// the headers, plain HTTP refused in production (TLS, or one of proxies
// saying X-Forwarded-Proto: https), a header the service reads that cannot
// be read or is sent twice, and a path or query that is not UTF-8 text
// without NUL. next reads the calling address with ClientAddress.
func Front(r *gin.Engine, log *zap.Logger, limits *Limiter, production bool, proxies []netip.Prefix,
	next http.Handler) {
	r.HandleMethodNotAllowed = false
	r.RedirectTrailingSlash, r.RedirectFixedPath = false, false
	// The panel's pages take no key, so their other refusals count nothing
	// (Fail); the API's count against the key or address (RefuseEarly).
	r.Use(
		AssignRequestID(),
		AccessLog(log),
		Recoverer(log),
		RenderErrors(),
		RejectKeyInQuery(limits),
		LimitHeaders(Fail),
		RequireTLS(production, proxies, Fail),
		CheckHeaders(Fail),
		RefuseUnreadableText(Fail),
	)
	r.Any("/*path", func(c *gin.Context) {
		// Gin answers 200 unless next says otherwise.
		c.Status(http.StatusOK)
		ctx := context.WithValue(c.Request.Context(), clientAddressKey{}, c.ClientIP())
		ctx = context.WithValue(ctx, requestIDCtxKey{}, RequestIDOf(c))
		next.ServeHTTP(c.Writer, c.Request.WithContext(ctx))
	})
}

// ClientAddress is the calling address of a request that came through
// Front: the peer, or the client a trusted proxy names (TP_TRUSTED_PROXIES)
// — the address the API's per-address limits count. Without Front it is
// the peer.
func ClientAddress(r *http.Request) string {
	if a, ok := r.Context().Value(clientAddressKey{}).(string); ok && a != "" {
		return a
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// RequestID is the req_ id Front gave r (answered in X-Request-ID); empty
// without Front.
func RequestID(r *http.Request) string {
	id, _ := r.Context().Value(requestIDCtxKey{}).(string)
	return id
}
