package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/wire"
)

// Delivery is a verified webhook delivery.
type Delivery struct {
	// ID is the delivery id (whd_…): the same for every retry of one
	// delivery, new for a replay.
	ID string
	// UserID is the numeric id of the account, as text.
	UserID string
	// Timestamp is when the delivery was signed.
	Timestamp time.Time
	// Body is the raw body; Event is it decoded (a ping has only id,
	// occurred_at, event and api_version). Dedupe by Event.ID.
	Body  []byte
	Event wire.Event
}

// Errors of Verify, for errors.Is.
var (
	// ErrStale: the timestamp is missing, malformed or outside the window.
	ErrStale = signer.ErrStale
	// ErrBadSignature: no published key verifies the signature.
	ErrBadSignature = signer.ErrBadSignature
	// ErrMissingHeaders: a X-Service-* header is missing.
	ErrMissingHeaders = errors.New("webhook delivery lacks X-Service-* headers")
)

// Verifier checks webhook deliveries as the spec's five steps say: the four
// X-Service-* headers and the raw body; the timestamp within
// webhook.signature.timestamp_window_seconds of GET /v1/meta; the message
// of four lines (delivery id, user id, timestamp, hex SHA-256 of the body);
// an Ed25519 signature any key of /.well-known/jwks.json verifies; the key
// document cached at most 24 hours and refetched once on a failure, at most
// once per cooldown. It is safe for concurrent use.
type Verifier struct {
	baseURL  string
	http     *http.Client
	now      func() time.Time
	maxAge   time.Duration
	cooldown time.Duration
	window   time.Duration
	maxBody  int64

	mu        sync.Mutex
	jwks      *signer.JWKS
	fetchedAt time.Time
	// lastTry is the last refetch after a failure (the cooldown's start).
	lastTry time.Time
}

// VerifierOption configures a Verifier.
type VerifierOption func(*Verifier)

// WithVerifierHTTPClient fetches the key document and metadata with hc.
func WithVerifierHTTPClient(hc *http.Client) VerifierOption {
	return func(v *Verifier) { v.http = hc }
}

// WithClock sets the receiver's clock (tests).
func WithClock(now func() time.Time) VerifierOption { return func(v *Verifier) { v.now = now } }

// WithWindow fixes the timestamp window instead of reading it from
// GET /v1/meta.
func WithWindow(d time.Duration) VerifierOption { return func(v *Verifier) { v.window = d } }

// WithRefetchCooldown sets the least time between two fetches of the key
// document after failures (default 1 minute).
func WithRefetchCooldown(d time.Duration) VerifierOption {
	return func(v *Verifier) { v.cooldown = d }
}

// KeysMaxAge is the longest the key document is cached.
const KeysMaxAge = 24 * time.Hour

// NewVerifier verifies deliveries signed by the service at baseURL (its
// keys at {baseURL}/.well-known/jwks.json).
func NewVerifier(baseURL string, opts ...VerifierOption) *Verifier {
	v := &Verifier{
		baseURL:  strings.TrimRight(baseURL, "/"),
		http:     &http.Client{Timeout: 10 * time.Second},
		now:      time.Now,
		maxAge:   KeysMaxAge,
		cooldown: time.Minute,
		maxBody:  16 << 20,
	}
	for _, o := range opts {
		o(v)
	}
	return v
}

// Verify checks one delivery: its headers and raw body.
func (v *Verifier) Verify(ctx context.Context, h http.Header, body []byte) (*Delivery, error) {
	id, user, ts, sig := h.Get(
		"X-Service-Request-Id",
	), h.Get(
		"X-Service-User-Id",
	), h.Get(
		"X-Service-Timestamp",
	), h.Get(
		"X-Service-Signature",
	)
	if id == "" || user == "" || ts == "" || sig == "" {
		return nil, ErrMissingHeaders
	}
	window, err := v.timestampWindow(ctx)
	if err != nil {
		return nil, err
	}
	jwks, fresh, err := v.keys(ctx, false)
	if err != nil {
		return nil, err
	}
	now := v.now()
	err = signer.Verify(*jwks, id, user, ts, sig, body, now, window)
	if errors.Is(err, ErrBadSignature) && !fresh {
		// Keys may have rolled: refetch once (cooldown permitting).
		if again, refetched, ferr := v.keys(ctx, true); ferr == nil && refetched {
			err = signer.Verify(*again, id, user, ts, sig, body, now, window)
		}
	}
	if err != nil {
		return nil, err
	}
	d := &Delivery{ID: id, UserID: user, Body: body}
	n, _ := strconv.ParseInt(ts, 10, 64)
	d.Timestamp = time.Unix(n, 0).UTC()
	_ = json.Unmarshal(body, &d.Event) // signed by the service: its own body
	return d, nil
}

// keys is the cached key document, fetched when absent or older than
// maxAge, or (force) when the cooldown since the last fetch has passed.
// fresh says whether it was fetched by this call.
func (v *Verifier) keys(ctx context.Context, force bool) (*signer.JWKS, bool, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	stale := v.jwks == nil || now.Sub(v.fetchedAt) >= v.maxAge
	if !stale && !(force && now.Sub(v.lastTry) >= v.cooldown) {
		return v.jwks, false, nil
	}
	if !stale && force {
		v.lastTry = now
	}
	var doc signer.JWKS
	if err := v.get(ctx, "/.well-known/jwks.json", &doc); err != nil {
		if !stale {
			return v.jwks, false, nil
		}
		return nil, false, fmt.Errorf("fetch webhook keys: %w", err)
	}
	v.jwks, v.fetchedAt = &doc, now
	return v.jwks, true, nil
}

// timestampWindow is the window of GET /v1/meta, read once.
func (v *Verifier) timestampWindow(ctx context.Context) (time.Duration, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.window > 0 {
		return v.window, nil
	}
	var m contract.Meta
	if err := v.get(ctx, "/v1/meta", &m); err != nil {
		return 0, fmt.Errorf("read the timestamp window: %w", err)
	}
	if m.Webhook.Signature.TimestampWindowSeconds <= 0 {
		return 0, errors.New("GET /v1/meta has no webhook.signature.timestamp_window_seconds")
	}
	v.window = time.Duration(m.Webhook.Signature.TimestampWindowSeconds) * time.Second
	return v.window, nil
}

func (v *Verifier) get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.baseURL+path, nil)
	if err != nil {
		return err
	}
	res, err := v.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %d", path, res.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(out)
}

type deliveryKey struct{}

// DeliveryFrom is the verified delivery of a request that passed
// Middleware.
func DeliveryFrom(ctx context.Context) (*Delivery, bool) {
	d, ok := ctx.Value(deliveryKey{}).(*Delivery)
	return d, ok
}

// Middleware verifies each request before next sees it: a delivery that
// does not verify is answered 401 (the service does not retry a 4xx), one
// whose keys cannot be read 503 (retried). next reads the verified
// delivery with DeliveryFrom and the unchanged body from r.Body.
func (v *Verifier) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, v.maxBody))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		d, err := v.Verify(r.Context(), r.Header, body)
		switch {
		case errors.Is(err, ErrBadSignature), errors.Is(err, ErrStale), errors.Is(err, ErrMissingHeaders):
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		case err != nil:
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), deliveryKey{}, d)))
	})
}
