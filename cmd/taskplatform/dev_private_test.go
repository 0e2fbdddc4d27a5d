package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// TestDevRefusesPrivateAddressesByDefault runs the binary with the
// production default (TP_ALLOW_PRIVATE_URLS unset) against a loopback https
// server its TLS trusts, so only the address guard stands between them: a
// webhook_url, a registered URL and an image URL naming it are refused at
// submit, and when a name that passed registration dials loopback later (a
// rebinding name; the rows are written as if it had), the image fetch and
// the webhook delivery are refused at dial time — the server never hears
// from the service.
func TestDevRefusesPrivateAddressesByDefault(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	var motif bytes.Buffer
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(16, 16, color.NRGBA{R: 200, A: 255})
	require.NoError(t, png.Encode(&motif, img))
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(motif.Bytes())
	}))
	t.Cleanup(srv.Close)
	certFile := filepath.Join(t.TempDir(), "server.pem")
	require.NoError(
		t,
		os.WriteFile(
			certFile,
			pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}),
			0o644,
		),
	)

	dataDir := t.TempDir()
	dev := startReady(t, dataDir, "", "SSL_CERT_FILE="+certFile)
	key := dev.key(t)
	call := func(method, path, body string, headers ...string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequest(method, dev.base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Key "+key)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m), "%s", raw)
		return res.StatusCode, m
	}
	errorOf := func(m map[string]any) map[string]any {
		t.Helper()
		e, ok := m["error"].(map[string]any)
		require.True(t, ok, "an error answer: %v", m)
		return e
	}

	// Refused at submit: every URL a caller names is checked.
	for _, tc := range []struct {
		name, path, body, field string
	}{
		{"webhook_url", "/v1/tasks/pattern.generate?webhook_url=" + url.QueryEscape(srv.URL+"/hook"), `{"kind":"dots",` +
			`"colors":["#102030"],"count":1}`, "webhook_url"},
		{"registered URL", "/v1/files", `{"url":"` + srv.URL + `/motif.png"}`, "url"},
		{"image URL", "/v1/tasks/pattern.repeat", `{"image":"` + srv.URL + `/motif.png"}`, "image"},
	} {
		status, m := call(http.MethodPost, tc.path, tc.body)
		require.Equal(t, http.StatusUnprocessableEntity, status, "%s: %v", tc.name, m)
		require.Equal(t, tc.field, errorOf(m)["field"], tc.name)
	}

	// Refused at dial time: rows naming the loopback server, written as
	// registration would have written them for a name that resolved publicly.
	ctx := context.Background()
	db, err := models.Open(ctx, models.OpenConfig{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = models.Close(db) })
	u, err := models.UserByEmail(ctx, db, devEmail)
	require.NoError(t, err)
	require.NoError(
		t,
		db.Create(
			&models.WebhookEndpoint{
				ID:     models.NewID("whe_"),
				UserID: u.ID,
				URL:    srv.URL + "/hook",
				Events: "job.failed",
			},
		).Error,
	)
	file, _, err := models.RegisterURL(
		ctx,
		db,
		&models.File{ID: models.NewID(""), UserID: u.ID, SourceURL: srv.URL + "/motif.png", Data: "null"},
		time.Now(),
	)
	require.NoError(t, err)

	status, m := call(
		http.MethodPost,
		"/v1/tasks/pattern.repeat",
		`{"image":"file:`+file.ID+`","resolution":"512"}`,
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusUnprocessableEntity, status, "the fetch is refused: %v", m)
	e := errorOf(m)
	require.Equal(t, "processing_failed", e["code"])
	require.Contains(t, e["message"], "the image at image could not be fetched: its address is not public")
	jobID, _ := e["job_id"].(string)
	require.NotEmpty(t, jobID)

	var d models.WebhookDelivery
	require.Eventually(t, func() bool {
		return db.Where("job_id = ? AND attempts > 0", jobID).Take(&d).Error == nil
	}, 30*time.Second, 100*time.Millisecond, "the job.failed delivery is attempted")
	require.Equal(t, models.DeliveryPending, d.Status, "no answer is retried")
	require.Contains(t, d.LastError, "address is not public")
	require.Zero(t, hits.Load(), "the loopback server never hears from the service")
}
