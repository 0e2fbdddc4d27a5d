package outbound_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/outbound"
)

// proxyChild names the variable under which the test binary runs as the
// child of TestNoProxyFromEnvironment: its value is the URL to GET.
const proxyChild = "OUTBOUND_TEST_PROXY_CHILD"

// TestMain runs the proxy child when asked, else the tests. net/http reads
// the proxy variables once per process, so a test that sets them must run
// in a process of its own, started with them.
func TestMain(m *testing.M) {
	if target := os.Getenv(proxyChild); target != "" {
		os.Exit(runProxyChild(target))
	}
	os.Exit(m.Run())
}

// runProxyChild GETs target twice, with a client that honours the proxy
// variables (the control) and with the outbound client, and prints each
// error on its own line.
func runProxyChild(target string) int {
	control := &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment}, Timeout: 5 * time.Second}
	client := outbound.New(outbound.Options{AllowPrivate: true, ConnectTimeout: time.Second, Timeout: 2 * time.Second})
	for _, c := range []struct {
		name   string
		client *http.Client
	}{{"control", control}, {"outbound", client}} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			cancel()
			fmt.Println(c.name+":", err)
			return 1
		}
		res, err := c.client.Do(req)
		if err == nil {
			_ = res.Body.Close()
		}
		cancel()
		fmt.Printf("%s: %v\n", c.name, err)
	}
	return 0
}

// TestNoProxyFromEnvironment: with HTTPS_PROXY naming a proxy the test
// controls, a request to a non-loopback address (which the environment
// would send through the proxy) never reaches the proxy from the outbound
// client, while a client honouring the environment does reach it.
func TestNoProxyFromEnvironment(t *testing.T) {
	var (
		mu       sync.Mutex
		connects []string
	)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		connects = append(connects, r.Method+" "+r.Host)
		mu.Unlock()
		w.WriteHeader(http.StatusBadGateway)
	}))
	t.Cleanup(proxy.Close)

	// 192.0.2.1 (TEST-NET-1) is not loopback, so the environment proxies
	// it; nothing answers there directly.
	const target = "https://192.0.2.1/hook"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(name) {
		case "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "ALL_PROXY", proxyChild:
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "HTTPS_PROXY="+proxy.URL, "HTTP_PROXY="+proxy.URL, proxyChild+"="+target)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child: %s", out)
	require.Contains(t, string(out), "control: ", "child: %s", out)
	require.Contains(t, string(out), "outbound: ", "child: %s", out)

	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"CONNECT 192.0.2.1:443"}, connects,
		"only the control goes through the proxy; the outbound client dials directly\nchild: %s", out)
}
