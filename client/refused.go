package client

import (
	"errors"
	"net"
	"syscall"
)

// refusedLocally says whether err is a connection refused by a loopback
// address: nothing listens there, and retrying for seconds only hides it.
func refusedLocally(err error) bool {
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return false
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Addr == nil {
		return false
	}
	host, _, splitErr := net.SplitHostPort(op.Addr.String())
	if splitErr != nil {
		host = op.Addr.String()
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
