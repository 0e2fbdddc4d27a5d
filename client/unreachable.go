package client

import (
	"errors"
	"net"
	"net/url"
	"syscall"
)

// UnreachableError is a call that found no service at its address: the
// connection was refused (nothing listens at that host and port) or the
// host name does not resolve. The client does not retry it — retrying with
// backoff for a minute would only hide a stopped service or a wrong
// address — and names the address it tried. It unwraps to the network
// error, so errors.Is(err, syscall.ECONNREFUSED) and errors.As(err,
// **net.DNSError) keep working.
type UnreachableError struct {
	// Addr is the address tried: host:port for a refused connection, the
	// host name for one that does not resolve.
	Addr string
	// Err is the network error.
	Err error
}

// Error names the address and why nothing answers there.
func (e *UnreachableError) Error() string {
	var dns *net.DNSError
	if errors.As(e.Err, &dns) {
		return "cannot reach " + e.Addr + ": the host name does not resolve"
	}
	return "cannot reach " + e.Addr + ": connection refused (nothing listens there)"
}

// Unwrap is the network error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// unreachable is err as an *UnreachableError when it says nothing answers
// at the address (a refused connection to any host, or a host name that
// does not resolve), else nil.
func unreachable(err error) *UnreachableError {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if !dns.IsNotFound {
			return nil // a resolver that failed may answer next time
		}
		return &UnreachableError{Addr: dns.Name, Err: err}
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return nil
	}
	addr := ""
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		addr = op.Addr.String()
	}
	var ue *url.Error
	if addr == "" && errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			addr = u.Host
		}
	}
	return &UnreachableError{Addr: addr, Err: err}
}
