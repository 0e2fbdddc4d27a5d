package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/outbound"
)

// TestStackOutboundClientsRefusePrivateAddresses checks the production
// wiring of the two outbound clients (webhooks and URL fetches): with
// TP_ALLOW_PRIVATE_URLS unset they refuse a loopback address at dial time,
// and only the switch lets them dial it.
func TestStackOutboundClientsRefusePrivateAddresses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)

	tests := []struct {
		name         string
		allowPrivate bool
		// refused says the client stops at the address guard; otherwise it
		// dials and fails on the test server's untrusted certificate.
		refused bool
	}{
		{name: "production default", allowPrivate: false, refused: true},
		{name: "TP_ALLOW_PRIVATE_URLS", allowPrivate: true, refused: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acts := (&stack{cfg: config{AllowPrivateURLs: tt.allowPrivate}}).activities()
			for name, c := range map[string]*http.Client{"webhooks": acts.HTTP, "fetch": acts.Fetch} {
				res, err := c.Post(srv.URL+"/hook", "application/json", strings.NewReader(`{}`))
				if res != nil {
					res.Body.Close()
				}
				require.Error(t, err, name)
				require.Equal(t, tt.refused, errors.Is(err, outbound.ErrNotPublic), "%s: %v", name, err)
			}
			require.Zero(t, hits.Load(), "no request reaches the server")
		})
	}
}
