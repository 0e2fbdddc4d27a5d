// Package client is the Go SDK of the task platform API: submit a task
// (idempotently, optionally waiting), follow its job by polling or by the
// live event stream, read its result (every page), cancel it, upload or
// register files and download outputs — typed on the service's own wire
// objects. The spec's retry rules are built in: an answer with an error
// object is retried only when it says retryable; 429, 500, 502, 503 and
// 504 without one (a proxy's answer) and network errors are retried;
// exponential backoff with jitter capped at 60 s; Retry-After honoured; a
// POST is resent with the same Idempotency-Key. A connection refused or a
// host name that does not resolve is not retried: it fails at once with
// *UnreachableError, naming the address. Errors the service answers are
// *Error.
//
// Verifier checks webhook deliveries exactly as the spec's five steps say,
// and works as http.Handler middleware.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Client calls the API with one key. Its zero value is not usable: use New.
type Client struct {
	baseURL, key string
	http         *http.Client
	maxAttempts  int
	maxBackoff   time.Duration
	baseBackoff  time.Duration
	version      string
	userAgent    string
	sleep        func(ctx context.Context, d time.Duration) error
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends requests with hc (timeouts, TLS, proxies). Streams
// and long waits need a client without an overall Timeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithMaxAttempts sets how many times one call is tried (default 6).
func WithMaxAttempts(n int) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxAttempts = n
		}
	}
}

// WithBackoff sets the first retry's wait (default 500 ms) and the cap
// (default and at most 60 s); each retry doubles the wait, with jitter.
func WithBackoff(first, maxWait time.Duration) Option {
	return func(c *Client) {
		if first > 0 {
			c.baseBackoff = first
		}
		if maxWait > 0 && maxWait <= MaxBackoff {
			c.maxBackoff = maxWait
		}
	}
}

// WithServiceVersion pins the dated contract version (Service-Version).
func WithServiceVersion(v string) Option { return func(c *Client) { c.version = v } }

// WithUserAgent names the calling program.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// MaxBackoff caps the wait between two tries of a call.
const MaxBackoff = 60 * time.Second

// New is a client of the API at baseURL (for example
// https://api.example.com, without /v1) calling with key.
func New(baseURL, key string, opts ...Option) *Client {
	c := &Client{baseURL: strings.TrimRight(baseURL, "/"), key: key, http: &http.Client{}, maxAttempts: 6,
		maxBackoff: MaxBackoff, baseBackoff: 500 * time.Millisecond, userAgent: "taskplatform-go",
		sleep: sleepCtx}
	for _, o := range opts {
		o(c)
	}
	return c
}

// BaseURL is the API's base address.
func (c *Client) BaseURL() string { return c.baseURL }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Error is an error the service answered: the spec's error object with
// the answer's status.
type Error struct {
	// Status is the HTTP status of the answer.
	Status int `json:"-"`
	// Code is the stable identifier to branch on (for example
	// insufficient_credits); Type its category (invalid_request, …).
	Code    string `json:"code"`
	Type    string `json:"type"`
	Message string `json:"message"`
	// Field is the public path of the offending input, or empty.
	Field     string `json:"field"`
	Retryable bool   `json:"retryable"`
	Docs      string `json:"docs"`
	// RequestID is the service's id of the request (req_…).
	RequestID string `json:"request_id"`
	// JobID names the job the error belongs to, if any.
	JobID string `json:"job_id"`
	// Required and Balance are set on insufficient_credits, in every
	// contract version: read from the error's top level (2026-09-29, the
	// current version) or from ctx (every version, and the only place
	// under 2026-06-30).
	Required int64    `json:"required"`
	Balance  int64    `json:"balance"`
	Ctx      ErrorCtx `json:"ctx"`
	// RetryAfter is the wait the answer asked for (Retry-After), if any.
	RetryAfter time.Duration `json:"-"`
}

// ErrorCtx is the ctx object of an error: the amounts of
// insufficient_credits, the spend limit of spend_limit_reached and the wait
// of a refusal that asks for one.
type ErrorCtx struct {
	Required   int64 `json:"required"`
	Balance    int64 `json:"balance"`
	RetryAfter int   `json:"retry_after"`
	// MaxCredits is the submit's ceiling on max_credits_exceeded.
	MaxCredits int64 `json:"max_credits"`
	// Limit, Spent, Period (day or month), Scope (account or key),
	// CreditType and ResetsAt name the spend limit of
	// spend_limit_reached; Required is the job's hold.
	Limit      int64     `json:"limit"`
	Spent      int64     `json:"spent"`
	Period     string    `json:"period"`
	Scope      string    `json:"scope"`
	CreditType string    `json:"credit_type"`
	ResetsAt   time.Time `json:"resets_at"`
	// Items are the refused items of batch_refused: each item's index in
	// the batch and the error its submit would answer.
	Items []ItemError `json:"items"`
}

// ItemError is one refused item of a batch.
type ItemError struct {
	Index int    `json:"index"`
	Error *Error `json:"error"`
}

// UnmarshalJSON reads an error object of any contract version: required
// and balance are at its top level from 2026-09-29 on and in ctx in every
// version, so Required and Balance are taken from either.
func (e *Error) UnmarshalJSON(b []byte) error {
	type plain Error
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*e = Error(p)
	if e.Required == 0 {
		e.Required = e.Ctx.Required
	}
	if e.Balance == 0 {
		e.Balance = e.Ctx.Balance
	}
	return nil
}

// Error is the message, with the code and the field it names.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	if e.Field != "" {
		b.WriteString(" (field " + e.Field + ")")
	}
	b.WriteString(": " + e.Message)
	if e.RequestID != "" {
		b.WriteString(" [" + e.RequestID + "]")
	}
	return b.String()
}

// IsCode says whether err is an *Error with code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// request is one call: it is rebuilt for each try.
type request struct {
	method, path string
	body         []byte
	contentType  string
	headers      http.Header
}

// answer is a successful answer, body read.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends r, retrying as the spec's retry rules say, and returns the first
// answer that is not an error. It returns *Error for an error the service
// answered (retryable ones after the last try) and the transport error
// otherwise.
func (c *Client) do(ctx context.Context, r request) (*answer, error) {
	for attempt := 0; ; attempt++ {
		res, err := c.send(ctx, r)
		var wait time.Duration
		switch {
		case err == nil && res.StatusCode < 400:
			body, rerr := io.ReadAll(res.Body)
			_ = res.Body.Close()
			if rerr == nil {
				return &answer{res.StatusCode, res.Header, body}, nil
			}
			err = rerr
		case err == nil:
			apiErr, retry := c.errorOf(res)
			if !retry || attempt+1 >= c.maxAttempts {
				return nil, apiErr
			}
			wait = apiErr.RetryAfter
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if u := unreachable(err); u != nil {
				return nil, u
			}
			if attempt+1 >= c.maxAttempts {
				return nil, err
			}
		}
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// send makes one try of r.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, c.baseURL+r.path, body)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.headers {
		req.Header[k] = vs
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Key "+c.key)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if c.version != "" {
		req.Header.Set("Service-Version", c.version)
	}
	req.Header.Set("User-Agent", c.userAgent)
	return c.http.Do(req)
}

// errorOf reads an error answer and says whether to retry it: as its error
// object says, or, without one, for 429, 500, 502, 503 and 504.
func (c *Client) errorOf(res *http.Response) (*Error, bool) {
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	_ = res.Body.Close()
	var env struct {
		Error *Error `json:"error"`
	}
	e := &Error{}
	hasObject := json.Unmarshal(raw, &env) == nil && env.Error != nil && env.Error.Code != ""
	if hasObject {
		e = env.Error
	} else {
		e.Code, e.Type = "http_"+strconv.Itoa(res.StatusCode), "internal"
		e.Message = strings.TrimSpace(string(raw))
		if e.Message == "" {
			e.Message = http.StatusText(res.StatusCode)
		}
		if len(e.Message) > 200 {
			e.Message = e.Message[:200]
		}
	}
	e.Status = res.StatusCode
	if e.RequestID == "" {
		e.RequestID = res.Header.Get("X-Request-ID")
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	} else if e.Ctx.RetryAfter > 0 {
		e.RetryAfter = time.Duration(e.Ctx.RetryAfter) * time.Second
	}
	if hasObject {
		return e, e.Retryable
	}
	switch res.StatusCode {
	case http.StatusTooManyRequests,
		http.StatusInternalServerError,
		http.StatusBadGateway,
		http.StatusServiceUnavailable,
		http.StatusGatewayTimeout:
		e.Retryable = true
	}
	return e, e.Retryable
}

// backoff is the wait before try attempt+2: exponential, capped, with
// jitter (between half and all of it).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.baseBackoff << min(attempt, 20)
	if d <= 0 || d > c.maxBackoff {
		d = c.maxBackoff
	}
	half := int64(d / 2)
	n, err := rand.Int(rand.Reader, big.NewInt(half+1))
	if err != nil {
		return d
	}
	return time.Duration(half + n.Int64())
}

// getJSON GETs path into out.
func (c *Client) getJSON(ctx context.Context, path string, out any) error {
	a, err := c.do(ctx, request{method: http.MethodGet, path: path})
	if err != nil {
		return err
	}
	return decode(a, out)
}

func decode(a *answer, out any) error {
	if err := json.Unmarshal(a.body, out); err != nil {
		return fmt.Errorf("read answer (%d): %w", a.status, err)
	}
	return nil
}

// newKey is a random UUID v4, the advised form of an Idempotency-Key.
func newKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
