package client

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
)

// fake is an API server answering from a script of handlers, one per call.
type fake struct {
	mu    sync.Mutex
	calls []*http.Request
	steps []http.HandlerFunc
	srv   *httptest.Server
}

func newFake(t *testing.T, steps ...http.HandlerFunc) *fake {
	f := &fake{steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		n := len(f.calls)
		f.calls = append(f.calls, r.Clone(context.Background()))
		f.mu.Unlock()
		if n >= len(f.steps) {
			t.Errorf("unexpected call %d: %s %s", n+1, r.Method, r.URL)
			w.WriteHeader(http.StatusTeapot)
			return
		}
		f.steps[n](w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// client is a client of the fake that records its waits instead of
// sleeping.
func (f *fake) client(waits *[]time.Duration, opts ...Option) *Client {
	c := New(f.srv.URL, "tpk_test", opts...)
	c.sleep = func(ctx context.Context, d time.Duration) error { *waits = append(*waits, d); return ctx.Err() }
	return c
}

func jsonAnswer(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func apiError(status int, code, typ string, retryable bool, field string) http.HandlerFunc {
	f := "null"
	if field != "" {
		f = strconv.Quote(field)
	}
	return jsonAnswer(
		status,
		fmt.Sprintf(
			`{"error":{"code":%q,"type":%q,"message":"m","field":%s,"retryable":%t,"request_id":"req_1","ctx":{}}}`,
			code,
			typ,
			f,
			retryable,
		),
		"X-Request-ID",
		"req_1",
	)
}

const handle = `{"job_id":"j_1","task":"pattern.generate","lifecycle":"queued","outcome":null,"progress":{"done":0,` +
	`"total":null,"phase":"queued"},"error":null}`

func TestSubmitRetriesAsTheSpecSays(t *testing.T) {
	proxy := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, "<html>bad gateway</html>")
		}
	}
	f := newFake(
		t,
		proxy(http.StatusBadGateway),
		apiError(http.StatusServiceUnavailable, "internal", "internal", true, ""),
		jsonAnswer(
			http.StatusConflict,
			`{"error":{"code":"request_in_progress","type":"conflict","message":"m","retryable":true,"ctx":{"retry_after":3}}}`,
		),
		jsonAnswer(http.StatusAccepted, handle, "X-Service-Credits", "20", "X-Service-Credit-Type", "service_credits"),
	)
	var waits []time.Duration
	c := f.client(&waits)
	s, err := c.Submit(
		context.Background(),
		"pattern.generate",
		map[string]any{"count": 2},
		&SubmitOptions{Wait: 1500 * time.Millisecond, StartTimeout: 30 * time.Second},
	)
	require.NoError(t, err)
	require.Equal(t, "j_1", s.JobID)
	require.EqualValues(t, 20, s.Credits)
	require.Equal(t, "service_credits", s.CreditType)
	require.Len(t, f.calls, 4)
	for _, r := range f.calls {
		require.Equal(t, s.IdempotencyKey, r.Header.Get("Idempotency-Key"), "every try resends the same key")
		require.Equal(t, "wait=2", r.Header.Get("Prefer"))
		require.Equal(t, "30", r.Header.Get("X-Service-Start-Timeout"))
		require.Equal(t, "Key tpk_test", r.Header.Get("Authorization"))
	}
	require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, s.IdempotencyKey)
	require.Len(t, waits, 3)
	require.Equal(t, 3*time.Second, waits[2], "the error's retry_after is honoured")
}

func TestErrorsThatAreNotRetried(t *testing.T) {
	tests := []struct {
		name string
		step http.HandlerFunc
		code string
	}{
		{
			"invalid input",
			apiError(http.StatusUnprocessableEntity, "invalid_colour", "invalid_request", false, "colors[1]"),
			"invalid_colour",
		},
		{
			"a 5xx whose error object says not retryable",
			apiError(http.StatusInternalServerError, "internal", "internal", false, ""),
			"internal",
		},
		{
			"a proxy's 404",
			func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) },
			"http_404",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.step)
			var waits []time.Duration
			_, err := f.client(&waits).Job(context.Background(), "j_1")
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tt.code, e.Code)
			require.Len(t, f.calls, 1)
			require.Empty(t, waits)
			if tt.code == "invalid_colour" {
				require.Equal(t, "colors[1]", e.Field)
				require.Equal(t, "req_1", e.RequestID)
				require.Equal(t, http.StatusUnprocessableEntity, e.Status)
				require.Equal(t, "invalid_colour (field colors[1]): m [req_1]", e.Error())
			}
		})
	}
}

// A 402 insufficient_credits gives its amounts in every contract version:
// at the error's top level and in ctx (2026-09-29, the current one), or in
// ctx only (2026-06-30). The typed error reads them from either.
func TestInsufficientCreditsInEveryVersion(t *testing.T) {
	tests := []struct{ version, body string }{
		{"2026-09-29", `{"error":{"code":"insufficient_credits","type":"credits","message":"m",` +
			`"field":null,"retryable":false,"request_id":"req_1","required":6,"balance":2,` +
			`"ctx":{"required":6,"balance":2}}}`},
		{"2026-06-30", `{"error":{"code":"insufficient_credits","type":"credits","message":"m",` +
			`"field":null,"retryable":false,"request_id":"req_1","ctx":{"required":6,"balance":2}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			f := newFake(t, jsonAnswer(http.StatusPaymentRequired, tt.body, "Service-Version", tt.version))
			var waits []time.Duration
			_, err := f.client(&waits, WithServiceVersion(tt.version)).Submit(context.Background(), "pattern.generate",
				map[string]any{"colors": []string{"#000000"}}, nil)
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, "insufficient_credits", e.Code)
			require.Equal(t, http.StatusPaymentRequired, e.Status)
			require.Equal(t, int64(6), e.Required)
			require.Equal(t, int64(2), e.Balance)
			require.Equal(t, tt.version, f.calls[0].Header.Get("Service-Version"))

			var inJob Error
			require.NoError(t, json.Unmarshal([]byte(tt.body[len(`{"error":`):len(tt.body)-1]), &inJob),
				"a job's error object reads the same")
			require.Equal(t, [2]int64{6, 2}, [2]int64{inJob.Required, inJob.Balance})
		})
	}
}

func TestRetriesEndAndBackoffIsCapped(t *testing.T) {
	var steps []http.HandlerFunc
	for range 3 {
		steps = append(
			steps,
			jsonAnswer(
				http.StatusTooManyRequests,
				`{"error":{"code":"rate_limited","type":"rate_limited","message":"m","retryable":true}}`,
				"Retry-After",
				"7",
			),
		)
	}
	f := newFake(t, steps...)
	var waits []time.Duration
	_, err := f.client(&waits, WithMaxAttempts(3)).Job(context.Background(), "j_1")
	require.True(t, IsCode(err, "rate_limited"))
	require.Equal(t, []time.Duration{7 * time.Second, 7 * time.Second}, waits, "Retry-After is honoured")

	c := New("http://x", "")
	for attempt := range 30 {
		d := c.backoff(attempt)
		require.LessOrEqual(t, d, MaxBackoff)
		require.Positive(t, d)
	}
	require.GreaterOrEqual(t, c.backoff(29), MaxBackoff/2)
}

func TestResultReadsEveryPage(t *testing.T) {
	f := newFake(
		t,
		jsonAnswer(200, `{"job_id":"j_1","files":[{"file":"art:a"}],"has_more":true,"next_cursor":"c1"}`),
		jsonAnswer(
			200,
			`{"job_id":"j_1","files":[{"file":"art:b"}],"has_more":false,"summary":{"requested":2,"delivered":2,"warnings":[]}}`,
		),
	)
	var waits []time.Duration
	r, err := f.client(&waits).Result(context.Background(), "j_1")
	require.NoError(t, err)
	require.Len(t, r.Files, 2)
	require.Equal(t, "art:b", r.Files[1].File)
	require.False(t, r.HasMore)
	require.Equal(t, "c1", f.calls[1].URL.Query().Get("cursor"))
}

func sseEvent(seq int64, kind string, done int) string {
	body, _ := json.Marshal(
		map[string]any{
			"id":        "evt_" + strconv.FormatInt(seq, 10),
			"event":     kind,
			"job_id":    "j_1",
			"lifecycle": "running",
			"progress":  map[string]any{"done": done, "total": 2, "phase": "rendering"},
		},
	)
	return fmt.Sprintf("id: %d\nevent: %s\ndata: %s\n\n", seq, kind, body)
}

func TestStreamResumesWhereItBroke(t *testing.T) {
	f := newFake(t,
		func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(
				w,
				": events of j_1\n\nretry: 3000\n\n"+sseEvent(0, "job.queue", 0)+sseEvent(1, "job.started", 0)+
					sseEvent(2, "job.progress", 1),
			)
		},
		apiError(http.StatusServiceUnavailable, "internal", "internal", true, ""),
		func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(
				w,
				sseEvent(
					2,
					"job.progress",
					1,
				)+": heartbeat\n\n"+sseEvent(
					3,
					"job.progress",
					2,
				)+sseEvent(
					1<<40,
					"job.succeeded",
					2,
				),
			)
		},
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	var waits []time.Duration
	c := f.client(&waits)
	s := c.Stream(context.Background(), "j_1", 0)
	var got []string
	for {
		ev, err := s.Next()
		if errors.Is(err, ErrStreamEnded) {
			break
		}
		require.NoError(t, err)
		got = append(got, fmt.Sprintf("%d %s %d", ev.Seq, ev.Event.Event, ev.Progress.Done))
	}
	require.Equal(
		t,
		[]string{"0 job.queue 0", "1 job.started 0", "2 job.progress 1", "3 job.progress 2",
			"1099511627776 job.succeeded 2"},
		got,
		"no gap, no repeat; job.queue, not numbered, is passed on",
	)
	require.Len(t, f.calls, 3)
	require.Empty(t, f.calls[0].Header.Get("Last-Event-ID"))
	require.Equal(t, "2", f.calls[1].Header.Get("Last-Event-ID"))
	require.Equal(t, "2", f.calls[2].Header.Get("Last-Event-ID"))

	// Resumed after its end, a stream ends at once (204).
	s = c.Stream(context.Background(), "j_1", 1<<40)
	_, err := s.Next()
	require.ErrorIs(t, err, ErrStreamEnded)
}

func TestStreamOfAnUnknownJob(t *testing.T) {
	f := newFake(t, apiError(http.StatusNotFound, "job_not_found", "invalid_request", false, ""))
	var waits []time.Duration
	_, err := f.client(&waits).Stream(context.Background(), "j_x", 0).Next()
	require.True(t, IsCode(err, "job_not_found"), "%v", err)
}

// keyServer serves a JWKS and /v1/meta, counting key fetches.
type keyServer struct {
	mu      sync.Mutex
	signer  *signer.Signer
	fetches int
	srv     *httptest.Server
}

func newKeyServer(t *testing.T, s *signer.Signer) *keyServer {
	k := &keyServer{signer: s}
	k.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k.mu.Lock()
		defer k.mu.Unlock()
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			k.fetches++
			_ = json.NewEncoder(w).Encode(k.signer.JWKS())
		case "/v1/meta":
			_, _ = io.WriteString(w, `{"webhook":{"max_attempts":8,"signature":{"timestamp_window_seconds":300}}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(k.srv.Close)
	return k
}

func (k *keyServer) roll(s *signer.Signer) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.signer = s
}

func newSigner(t *testing.T) *signer.Signer {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	return signer.New(key)
}

func signed(s *signer.Signer, at time.Time, body string) http.Header {
	h := http.Header{}
	h.Set("X-Service-Request-Id", "whd_1")
	h.Set("X-Service-User-Id", "42")
	h.Set("X-Service-Timestamp", strconv.FormatInt(at.Unix(), 10))
	h.Set("X-Service-Signature", s.Sign("whd_1", 42, at.Unix(), []byte(body)))
	return h
}

func TestVerifierFollowsTheFiveSteps(t *testing.T) {
	first := newSigner(t)
	ks := newKeyServer(t, first)
	now := time.Now()
	clock := func() time.Time { return now }
	v := NewVerifier(ks.srv.URL, WithClock(clock), WithRefetchCooldown(time.Minute))
	ctx := context.Background()
	body := `{"id":"evt_1","event":"job.succeeded","job_id":"j_1","lifecycle":"terminal","outcome":"succeeded",` +
		`"progress":{"done":1,"total":1,"phase":"done"}}`

	d, err := v.Verify(ctx, signed(first, now, body), []byte(body))
	require.NoError(t, err)
	require.Equal(t, "whd_1", d.ID)
	require.Equal(t, "42", d.UserID)
	require.Equal(t, "job.succeeded", d.Event.Event)
	require.Equal(t, 1, ks.fetches)

	_, err = v.Verify(ctx, signed(first, now, body), []byte(body+" "))
	require.ErrorIs(t, err, ErrBadSignature, "the body is signed byte for byte")
	require.Equal(t, 2, ks.fetches, "a failure refetches the keys once")
	_, err = v.Verify(ctx, signed(first, now, body), []byte(body+" "))
	require.ErrorIs(t, err, ErrBadSignature)
	require.Equal(t, 2, ks.fetches, "at most once per cooldown")

	_, err = v.Verify(ctx, signed(first, now.Add(-301*time.Second), body), []byte(body))
	require.ErrorIs(t, err, ErrStale, "the window of /v1/meta")
	_, err = v.Verify(ctx, http.Header{}, []byte(body))
	require.ErrorIs(t, err, ErrMissingHeaders)

	// The keys roll: after the cooldown, the next failure refetches them.
	rolled := newSigner(t)
	ks.roll(rolled)
	now = now.Add(2 * time.Minute)
	_, err = v.Verify(ctx, signed(rolled, now, body), []byte(body))
	require.NoError(t, err)
	require.Equal(t, 3, ks.fetches)

	// Cached at most 24 hours.
	now = now.Add(KeysMaxAge)
	_, err = v.Verify(ctx, signed(rolled, now, body), []byte(body))
	require.NoError(t, err)
	require.Equal(t, 4, ks.fetches)
}

func TestVerifierMiddleware(t *testing.T) {
	s := newSigner(t)
	ks := newKeyServer(t, s)
	var got *Delivery
	var gotBody string
	h := NewVerifier(ks.srv.URL).Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = DeliveryFrom(r.Context())
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
	}))
	body := `{"id":"evt_2","event":"job.failed","job_id":"j_1"}`
	req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
	req.Header = signed(s, time.Now(), body)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, http.StatusOK, w.Code)
	require.Equal(t, "evt_2", got.Event.ID)
	require.Equal(t, body, gotBody, "the handler reads the same body")

	req = httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body+"x"))
	req.Header = signed(s, time.Now(), body)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, http.StatusUnauthorized, w.Code)
}
