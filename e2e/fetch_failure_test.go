package e2e_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"image"
	"image/color"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// failedFetch is one way an image URL cannot be fetched and the words a
// caller reads for it.
type failedFetch struct {
	name, url, reason string
}

// selfSignedServer is an https server on loopback whose certificate no
// one trusts (every httptest server shares one certificate, which the
// stack's fetch client trusts).
func selfSignedServer(t *testing.T) *httptest.Server {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "untrusted"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes the test fails on purpose
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// requireCallerWords: a message carries none of the service's internals —
// no address it dialled or resolved through, no Go error text, no path.
func requireCallerWords(t *testing.T, msg string) {
	t.Helper()
	internals := []string{
		"127.0.0",
		":53",
		"dial",
		"tcp",
		"x509",
		"tls:",
		"Get \"",
		"lookup",
		"EOF",
		"render output",
		"/",
	}
	for _, internal := range internals {
		require.NotContains(t, msg, internal)
	}
}

// TestAFailedFetchSaysWhy: for each way an image URL cannot be fetched —
// a refused connection, an untrusted certificate, a server that does not
// answer, a host name that does not resolve (reached by a redirect), a 404
// — the job fails processing_failed and the Prefer: wait answer, the job
// read and the webhook body say why in the caller's words; a job that
// delivered its other outputs says it in the missing output's warning.
func TestAFailedFetchSaysWhy(t *testing.T) {
	t.Parallel()
	good := motifServer(
		t,
		pngOf(t, fill(64, 64, color.White, image.Rect(16, 16, 48, 48), color.NRGBA{200, 30, 40, 255})),
	)
	untrusted := selfSignedServer(t)
	hang := httptest.NewTLSServer(
		http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }),
	)
	t.Cleanup(hang.Close)
	redirector := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://nonexistent.invalid/motif.png", http.StatusFound)
	}))
	t.Cleanup(redirector.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := ln.Addr().String()
	require.NoError(t, ln.Close())

	rcv := newReceiver(t)
	pool := poolOf(good)
	for _, srv := range []*httptest.Server{hang, redirector, rcv.srv} {
		pool.AddCert(srv.Certificate())
	}
	s := newStack(t, stackOptions{credits: 100, rootCAs: pool, fetchTimeout: 500 * time.Millisecond})

	for _, tc := range []failedFetch{
		{"connection refused", "https://" + refused + "/motif.png", "the connection was refused"},
		{"untrusted certificate", untrusted.URL + "/motif.png",
			"the server's TLS certificate is not issued by a trusted authority"},
		{"no answer", hang.URL + "/motif.png", "the server did not answer in time"},
		{"host name that does not resolve", redirector.URL + "/motif.png", "the host name nonexistent.invalid "},
		{"404", good.URL + "/missing.png", "the server answered 404 Not Found"},
	} {
		requireJobSaysWhy(t, s, rcv, tc)
	}

	// Outputs delivered: the missing one's warning says why, in the wait
	// answer, the result and the webhook.
	res := s.do(http.MethodPost, "/v1/tasks/image.resize?webhook_url="+rcv.srv.URL+"/hook",
		map[string]any{"images": []string{good.URL + "/motif.png", "https://" + refused + "/motif.png"}, "width": 32},
		"Prefer", "wait=60")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	want := "Output 2 of 2 was not produced and was not charged: " +
		"the image at images[1] could not be fetched: the connection was refused."
	body := res.json(t)
	requireWarning(t, body["summary"], want)
	id := body["job_id"].(string)
	requireWarning(t, s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil).json(t)["summary"], want)
	hook := webhookOf(t, rcv, id)
	requireWarning(t, hook["result"].(map[string]any)["summary"], want)
}

// TestAFetchRefusedAsNotPublicSaysWhy: the fetch client of production
// refuses an address that is not public when it dials (the SSRF guard);
// the job says so in every channel.
func TestAFetchRefusedAsNotPublicSaysWhy(t *testing.T) {
	t.Parallel()
	good := motifServer(t, pngOf(t, fill(64, 64, color.White, image.Rectangle{}, nil)))
	rcv := newReceiver(t)
	pool := poolOf(good)
	pool.AddCert(rcv.srv.Certificate())
	s := newStack(t, stackOptions{credits: 100, rootCAs: pool, fetchPublicOnly: true})
	requireJobSaysWhy(t, s, rcv, failedFetch{"not public", good.URL + "/motif.png",
		"its address is not public (the service fetches public https addresses only)"})
}

// requireJobSaysWhy submits a pattern.repeat of tc's URL and checks that
// the wait answer, the job read and the webhook say tc's reason.
func requireJobSaysWhy(t *testing.T, s *testStack, rcv *receiver, tc failedFetch) {
	t.Helper()
	want := "The job delivered no output: the image at image could not be fetched: " + tc.reason
	res := s.do(http.MethodPost, "/v1/tasks/pattern.repeat?webhook_url="+rcv.srv.URL+"/hook",
		map[string]any{"image": tc.url, "resolution": "512"}, "Prefer", "wait=60")
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", tc.name, res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "processing_failed", e["code"], tc.name)
	require.Contains(t, e["message"], want, "%s: the wait answer says why", tc.name)
	requireCallerWords(t, e["message"].(string))
	id := e["job_id"].(string)

	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)
	require.Equal(t, e["message"], job["error"].(map[string]any)["message"], "%s: the job read says why", tc.name)
	hook := webhookOf(t, rcv, id)
	require.Equal(t, "job.failed", hook["event"])
	require.Equal(t, e["message"], hook["error"].(map[string]any)["message"], "%s: the webhook says why", tc.name)
}

// webhookOf waits for the webhook of job id and returns its body.
func webhookOf(t *testing.T, rcv *receiver, id string) map[string]any {
	t.Helper()
	var hook map[string]any
	require.Eventually(t, func() bool {
		for _, d := range rcv.deliveries() {
			if d.event["job_id"] == id {
				hook = d.event
				return true
			}
		}
		return false
	}, patience, 50*time.Millisecond, "the webhook of %s", id)
	return hook
}

// requireWarning: a summary carries the output_not_produced warning want.
func requireWarning(t *testing.T, summary any, want string) {
	t.Helper()
	s, ok := summary.(map[string]any)
	require.True(t, ok, "a summary: %v", summary)
	warnings := s["warnings"].([]any)
	require.Len(t, warnings, 1)
	w := warnings[0].(map[string]any)
	require.Equal(t, "output_not_produced", w["code"])
	require.Equal(t, want, w["message"])
	requireCallerWords(t, w["message"].(string))
}
