package engines

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// receiver takes the webhooks an engine sends about its async predictions
// and hands each to the step waiting for that prediction. It listens in
// the worker process, from the process's first async prediction (so an api
// process, which never predicts, opens no port), at
// {base}/{token}/{prediction id}: the token is random per process, so only
// the engine, told the address with each prediction, can report one.
type receiver struct {
	listen   string
	public   string
	token    string
	maxBytes int64
	// remember, for a listen on a free port (":0"), is the file keeping the
	// port this engine's listener last had: a restarted worker listens
	// there again, so Cog's retries of a webhook to the dead one are
	// answered (404: a new token) at once instead of refused for minutes,
	// its prediction server busy all the while.
	remember string

	mu      sync.Mutex
	base    string // {public}/{token} once listening
	waiting map[string]*waiter
}

// newReceiver checks an engine's webhook addresses; it listens later (url).
func newReceiver(listen, public string, maxBytes int64) (*receiver, error) {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("webhook_listen %q is not a host:port address: %w", listen, err)
	}
	if public == "" {
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			return nil, fmt.Errorf("webhook_listen %q listens on every interface: set webhook_url to the "+
				"address the engine reaches this worker at", listen)
		}
	} else {
		u, err := url.Parse(public)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
			return nil, fmt.Errorf("webhook_url %q is not an http(s) address", public)
		}
		public = strings.TrimRight(public, "/")
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return &receiver{listen: listen, public: public, token: hex.EncodeToString(b), maxBytes: maxBytes,
		waiting: map[string]*waiter{}}, nil
}

// url is the base of this process's webhook addresses, listening first if
// it does not yet; a listen that fails is tried again at the next call.
func (r *receiver) url() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.base != "" {
		return r.base, nil
	}
	ln, err := r.listenAgain()
	if err != nil {
		ln, err = net.Listen("tcp", r.listen)
	}
	if err != nil {
		return "", fmt.Errorf("listen for webhooks on %s: %w", r.listen, err)
	}
	if r.remember != "" {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		_ = os.WriteFile(r.remember, []byte(port), 0o600) // lost, the next start takes a free port
	}
	public := r.public
	if public == "" {
		public = "http://" + ln.Addr().String()
	}
	srv := &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	r.base = public + "/" + r.token
	return r.base, nil
}

// listenAgain listens on the port this engine's listener last had, when
// it listens on a free one and remembers it.
func (r *receiver) listenAgain() (net.Listener, error) {
	if r.remember == "" {
		return nil, os.ErrNotExist
	}
	port, err := os.ReadFile(r.remember)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(r.listen)
	return net.Listen("tcp", net.JoinHostPort(host, strings.TrimSpace(string(port))))
}

// wait registers the step waiting for prediction id, before the
// prediction is created so no webhook is missed; done unregisters it.
func (r *receiver) wait(id string) *waiter {
	w := &waiter{notify: make(chan struct{}, 1)}
	r.mu.Lock()
	r.waiting[id] = w
	r.mu.Unlock()
	return w
}

func (r *receiver) done(id string) {
	r.mu.Lock()
	delete(r.waiting, id)
	r.mu.Unlock()
}

// serve takes one webhook: the prediction as JSON, POSTed to
// {token}/{prediction id}. A prediction no step waits for any more (its
// job was cancelled) is answered 204 too, so the engine does not retry.
func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	token, id, ok := strings.Cut(strings.TrimPrefix(req.URL.Path, "/"), "/")
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(r.token)) != 1 || id == "" ||
		strings.Contains(id, "/") {
		http.NotFound(w, req)
		return
	}
	if req.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	raw, err := io.ReadAll(io.LimitReader(req.Body, r.maxBytes*4/3+(1<<20)))
	var p cogPrediction
	if err == nil {
		err = json.Unmarshal(raw, &p)
	}
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	wt := r.waiting[id]
	r.mu.Unlock()
	if wt != nil {
		wt.put(&p)
	}
	w.WriteHeader(http.StatusNoContent)
}

// waiter is a step waiting for its prediction's webhooks: the latest state
// reported, and a signal that it changed. An ended state is final: a late
// or repeated webhook does not undo it.
type waiter struct {
	address string // the webhook's address (the service's route)
	// refresh, when set, reads what the service has taken since the last
	// read (the route's store, read every watchEvery otherwise).
	refresh func(ctx context.Context)
	mu      sync.Mutex
	p       *cogPrediction
	notify  chan struct{}
}

func (w *waiter) put(p *cogPrediction) {
	w.mu.Lock()
	if w.p != nil && ended(w.p.Status) {
		w.mu.Unlock()
		return
	}
	w.p = p
	w.mu.Unlock()
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

func (w *waiter) latest() *cogPrediction {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.p
}
