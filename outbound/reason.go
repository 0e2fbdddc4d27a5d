package outbound

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
)

// Reason says why a request of the client to requested failed, in words
// for the person who named the address: "the connection was refused", "the
// server's TLS certificate has expired". It never carries the error's own
// text, so no address the service dialled from or resolved through (its
// own network) reaches a caller; the one name it may repeat is the host
// name the caller gave (or a redirect of theirs named). temporary says a
// later attempt may succeed: a refused or reset connection, a timeout, a
// failed lookup. Errors are read with errors.Is and errors.As only.
func Reason(err error, requested *url.URL) (reason string, temporary bool) {
	redirected := false
	var ue *url.Error
	if errors.As(err, &ue) && requested != nil && ue.URL != requested.String() {
		redirected = true
	}
	var (
		dnsErr    *net.DNSError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
		alert     tls.AlertError
		netErr    net.Error
	)
	switch {
	case errors.Is(err, ErrNotPublic) && redirected:
		return "it redirects to an address that is not public (the service fetches public https addresses only)", false
	case errors.Is(err, ErrNotPublic):
		return "its address is not public (the service fetches public https addresses only)", false
	case errors.Is(err, ErrNotHTTPS) && redirected:
		return "it redirects to an address that is not https://", false
	case errors.Is(err, ErrNotHTTPS):
		return "it is not an https:// address", false
	case errors.Is(err, ErrTooManyRedirects):
		return "it redirects too many times", false
	case errors.Is(err, ErrInvalidURL):
		return "the URL is not valid", false
	case errors.Is(err, ErrTooLarge):
		return "the file is larger than limits.url_fetch.max_bytes", false
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "the host name " + dnsErr.Name + " does not resolve", false
	case errors.As(err, &dnsErr):
		return "the host name " + dnsErr.Name + " could not be looked up", true
	case errors.As(err, &authority):
		return "the server's TLS certificate is not issued by a trusted authority", false
	case errors.As(err, &hostname):
		return "the server's TLS certificate is not valid for " + hostname.Host, false
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "the server's TLS certificate has expired or is not valid yet", false
	case errors.As(err, &invalid):
		return "the server's TLS certificate is not valid", false
	case errors.Is(err, http.ErrSchemeMismatch), errors.As(err, &record):
		return "the server does not answer TLS (https) on that port", false
	case errors.As(err, &alert):
		return "the server refused the TLS handshake", false
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "the server did not answer in time", true
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused", true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection was closed before the answer was complete", true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host cannot be reached", true
	}
	return "the server could not be reached", true
}
