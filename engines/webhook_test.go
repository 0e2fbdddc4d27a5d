package engines

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWebhookReceiverHandsOnlyItsOwnWebhooksToTheWaitingStep(t *testing.T) {
	r, err := newReceiver("127.0.0.1:0", "", 1<<20)
	require.NoError(t, err)
	base, err := r.url()
	require.NoError(t, err)
	w := r.wait("p1")
	defer r.done("p1")
	post := func(url, body string) int {
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	other := base[:strings.LastIndex(base, "/")] + "/" + strings.Repeat("0", 32)
	require.Equal(t, http.StatusNotFound, post(other+"/p1", `{"status":"succeeded"}`), "a guessed address")
	require.Nil(t, w.latest())
	require.Equal(t, http.StatusBadRequest, post(base+"/p1", `not json`))
	require.Equal(t, http.StatusNoContent, post(base+"/p9", `{"status":"succeeded"}`), "nobody waits: no retry")
	require.Equal(t, http.StatusNoContent, post(base+"/p1", `{"id":"p1","status":"succeeded","output":"x"}`))
	select {
	case <-w.notify:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting step was not told")
	}
	require.Equal(t, http.StatusNoContent, post(base+"/p1", `{"id":"p1","status":"processing"}`))
	require.Equal(t, cogSucceeded, w.latest().Status, "a late webhook does not undo the end")
}

// A worker listening for webhooks on a free port listens again on the port
// it had before a restart, so Cog's retries of a webhook to the dead
// listener are answered at once; a port another process took is left.
func TestAWebhookListenerOnAFreePortTakesItsLastPortAgain(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cog.port")
	free, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(free.Addr().String())
	require.NoError(t, free.Close())
	require.NoError(t, os.WriteFile(file, []byte(port), 0o600))

	r, err := newReceiver("127.0.0.1:0", "", 1<<20)
	require.NoError(t, err)
	r.remember = file
	base, err := r.url()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(base, "http://127.0.0.1:"+port+"/"), base)

	// That port is now taken (by r): the next listener takes a free one and
	// remembers it.
	again, err := newReceiver("127.0.0.1:0", "", 1<<20)
	require.NoError(t, err)
	again.remember = file
	other, err := again.url()
	require.NoError(t, err)
	require.False(t, strings.HasPrefix(other, "http://127.0.0.1:"+port+"/"), other)
	kept, err := os.ReadFile(file)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(other, "http://127.0.0.1:"+string(kept)+"/"), "%s remembered %s", other, kept)
}
