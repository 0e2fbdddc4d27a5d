package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/signer"
)

// A webhook receiver: the middleware verifies every delivery before the
// handler sees it (the service here is a stand-in signing with its own key).
func ExampleVerifier_Middleware() {
	_, key, _ := ed25519.GenerateKey(nil)
	service := signer.New(key)
	keys := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			_ = json.NewEncoder(w).Encode(service.JWKS())
		case "/v1/meta":
			_, _ = io.WriteString(w, `{"webhook":{"max_attempts":8,"signature":{"timestamp_window_seconds":300}}}`)
		}
	}))
	defer keys.Close()

	receiver := httptest.NewServer(
		client.NewVerifier(keys.URL).Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			d, _ := client.DeliveryFrom(r.Context())
			fmt.Println("verified", d.Event.Event, d.Event.JobID)
		})),
	)
	defer receiver.Close()

	deliver := func(body string, tamper bool) int {
		ts := time.Now().Unix()
		req, _ := http.NewRequest(http.MethodPost, receiver.URL, strings.NewReader(body))
		req.Header.Set("X-Service-Request-Id", "whd_1")
		req.Header.Set("X-Service-User-Id", "7")
		req.Header.Set("X-Service-Timestamp", strconv.FormatInt(ts, 10))
		req.Header.Set("X-Service-Signature", service.Sign("whd_1", 7, ts, []byte(body)))
		if tamper {
			req.Header.Set("X-Service-User-Id", "8")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	fmt.Println(deliver(`{"id":"evt_1","event":"job.succeeded","job_id":"j_1"}`, false))
	fmt.Println(deliver(`{"id":"evt_1","event":"job.succeeded","job_id":"j_1"}`, true))
	// Output:
	// verified job.succeeded j_1
	// 200
	// 401
}

// Proof of delivery: read an ended job's signed manifest and check it
// against the service's published keys (the service here is a stand-in
// signing with its own key).
func ExampleVerifier_VerifyManifest() {
	_, key, _ := ed25519.GenerateKey(nil)
	service := signer.New(key)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			_ = json.NewEncoder(w).Encode(service.JWKS())
		case "/v1/jobs/j_1/manifest":
			body := `{"job_id":"j_1","task":"pattern.generate","outputs":[{"index":0,"file":"art:f_1",` +
				`"bytes":2048,"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}],` +
				`"credits":{"credit_type":"service","held":10,"charged":10}}`
			_ = json.NewEncoder(w).Encode(service.SignJWS("tp-manifest+jws", []byte(body)))
		}
	}))
	defer api.Close()

	ctx := context.Background()
	jws, err := client.New(api.URL, "tpk_…").Manifest(ctx, "j_1")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := client.NewVerifier(api.URL).VerifyManifest(ctx, jws)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Task, len(m.Outputs), *m.Outputs[0].SHA256 != "", *m.Credits.Charged)
	// Output:
	// pattern.generate 1 true 10
}

// (GET /v1/events) and check each as a receiver would; `taskplatform
// webhooks listen` POSTs them on to a local address. The service here is a
// stand-in that sends one delivery and signs with its own key.
func ExampleClient_Listen() {
	_, key, _ := ed25519.GenerateKey(nil)
	service := signer.New(key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			_ = json.NewEncoder(w).Encode(service.JWKS())
		case "/v1/events":
			body := `{"id":"evt_1","event":"job.succeeded","job_id":"j_1"}`
			ts := time.Now().Unix()
			frame, _ := json.Marshal(map[string]any{"body": body, "headers": map[string]string{
				"Content-Type": "application/json", "X-Service-Request-Id": "whl_1", "X-Service-User-Id": "7",
				"X-Service-Timestamp": strconv.FormatInt(ts, 10),
				"X-Service-Signature": service.Sign("whl_1", 7, ts, []byte(body)),
			}})
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "id: whl_1\nevent: job.succeeded\ndata: %s\n\n", frame)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // a stream stays open
		}
	}))
	defer srv.Close()

	c := client.New(srv.URL, "tpk_example")
	verifier := client.NewVerifier(srv.URL, client.WithWindow(5*time.Minute))
	ctx, stop := context.WithCancel(context.Background())
	err := c.Listen(ctx, nil, func(d client.ListenDelivery) {
		got, err := verifier.Verify(ctx, d.Header, d.Body)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(d.ID, got.Event.Event, got.Event.JobID)
		stop() // one is enough here; listen runs until Ctrl-C
	})
	fmt.Println(errors.Is(err, context.Canceled))
	// Output:
	// whl_1 job.succeeded j_1
	// true
}
