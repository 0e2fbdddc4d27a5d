package engines

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// Leases are the engines' slots, shared by every worker process (the
// service's database, models.EngineLeases): a lane is an engine's task
// queue as a whole or one of its replicas, a holder a worker's poller or a
// prediction. A slot's lease runs out unless renewed, so a process that
// died frees its slots.
type Leases interface {
	// Acquire takes a free slot of lane among its first size for holder,
	// its own first; ok is false when all are taken.
	Acquire(ctx context.Context, engine, lane string, size int, holder string, ttl time.Duration) (int, bool, error)
	// Renew extends holder's lease of slot (models.ErrLeaseLost: lost).
	Renew(ctx context.Context, engine, lane string, slot int, holder string, ttl time.Duration) error
	// Release frees holder's slot.
	Release(ctx context.Context, engine, lane string, slot int, holder string) error
	// Held lists the lanes where holder holds, or held untaken, a slot.
	Held(ctx context.Context, engine, holder string) ([]string, error)
}

// LeaseTTL is how long a prediction's lease of a replica slot lasts
// unless renewed; its step renews it every third of that while it runs.
// A retried step takes back its own slot at once (its holder is the
// prediction id, the same in every attempt).
const LeaseTTL = 30 * time.Second

// The states Cog's GET /health-check answers (v0.16.12
// python/cog/server/http.py, class Health and healthcheck): STARTING while
// setup() runs, READY or BUSY (runner.is_busy) once it succeeded,
// SETUP_FAILED, DEFUNCT after a fatal error, UNHEALTHY when the model's own
// healthcheck fails. unreachable is ours: no answer.
const (
	healthStarting    = "STARTING"
	healthReady       = "READY"
	healthBusy        = "BUSY"
	healthSetupFailed = "SETUP_FAILED"
	healthDefunct     = "DEFUNCT"
	healthUnhealthy   = "UNHEALTHY"
	healthUnreachable = "unreachable"
)

// healthFor is how long a replica's health is trusted before it is asked
// again.
const healthFor = 3 * time.Second

// replica is one model server of an engine.
type replica struct {
	base *url.URL
	http *http.Client

	mu     sync.Mutex
	status string
	at     time.Time
}

// lane is the replica's name among the engine's leases: its address.
func (r *replica) lane() string { return r.base.String() }

// health is the replica's state as its GET /health-check answered within
// healthFor (unreachable: no answer, or not Cog's).
func (r *replica) health(ctx context.Context) string {
	r.mu.Lock()
	if !r.at.IsZero() && time.Since(r.at) < healthFor {
		defer r.mu.Unlock()
		return r.status
	}
	r.mu.Unlock()
	return r.fresh(ctx)
}

// fresh asks the replica's health now and remembers it.
func (r *replica) fresh(ctx context.Context) string {
	status := r.ask(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.at = status, time.Now()
	return status
}

// ask sends GET /health-check, for two seconds at most.
func (r *replica) ask(ctx context.Context) string {
	hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(hctx, http.MethodGet, r.base.String()+"/health-check", nil)
	if err != nil {
		return healthUnreachable
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return healthUnreachable
	}
	defer func() { _ = resp.Body.Close() }()
	var h struct {
		Status string `json:"status"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&h) != nil ||
		h.Status == "" {
		return healthUnreachable
	}
	return h.Status
}

// down says whether a replica in this state cannot take a prediction now
// or later without a restart: it does not answer, its setup failed, it hit
// a fatal error or its model says it is unhealthy. STARTING is loading:
// waited for.
func down(status string) bool {
	switch status {
	case healthUnreachable, healthSetupFailed, healthDefunct, healthUnhealthy:
		return true
	}
	return false
}

// order is the engine's replicas in the order prediction id tries them:
// the one its id hashes to first, then the next ones round the ring, so
// predictions spread over the replicas and every attempt of a step starts
// from the same one.
func (c *cog) order(id string) []*replica {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	n := len(c.replicas)
	out := make([]*replica, 0, n)
	for k := range n {
		out = append(out, c.replicas[(int(h.Sum32()%uint32(n))+k)%n])
	}
	return out
}

// claim is the replica prediction id runs on, and the slot it holds there:
// the replica an earlier attempt of its step held a slot of, when it is
// not down (the prediction may still run there: the step joins it), else
// the first replica in its order that is not down and has a free slot.
// Without one it waits, noting so in the step's heartbeats, until the
// step's context ends. Healthy replicas all down: the first in its order,
// where the step waits for the server to answer (Predict's wait). Without
// shared leases (tests of the engine alone) it is the first replica not
// down, unleased.
func (c *cog) claim(ctx context.Context, id string) (*replica, *lease, error) {
	for since := time.Now(); ; {
		order := c.order(id)
		var up []*replica
		for _, r := range order {
			if !down(r.health(ctx)) {
				up = append(up, r)
			}
		}
		if len(up) == 0 {
			up = order[:1]
		}
		if c.leases == nil {
			return up[0], nil, nil
		}
		held, err := c.leases.Held(ctx, c.name, id)
		if err != nil {
			return nil, nil, fail(Unavailable, "engine slots: %w", err)
		}
		for _, r := range preferHeld(up, held) {
			slot, ok, err := c.leases.Acquire(ctx, c.name, r.lane(), c.perReplica, id, LeaseTTL)
			if err != nil {
				return nil, nil, fail(Unavailable, "engine slots: %w", err)
			}
			if ok {
				return r, c.hold(ctx, r.lane(), slot, id), nil
			}
		}
		tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): every replica's slots are taken, waiting for %s",
			c.name, time.Since(since).Round(time.Second)))
		if err := sleep(ctx, time.Second); err != nil {
			return nil, nil, err
		}
	}
}

// preferHeld puts the replicas whose lanes are held first.
func preferHeld(up []*replica, held []string) []*replica {
	out := make([]*replica, 0, len(up))
	for _, r := range up {
		for _, l := range held {
			if r.lane() == l {
				out = append(out, r)
			}
		}
	}
	for _, r := range up {
		mine := false
		for _, l := range held {
			mine = mine || r.lane() == l
		}
		if !mine {
			out = append(out, r)
		}
	}
	return out
}

// lease is a slot a prediction holds, renewed until it is let go.
type lease struct {
	stop     context.CancelFunc
	finished chan struct{}
	release  func(ctx context.Context)
}

// hold renews holder's slot every third of LeaseTTL until the lease is let
// go.
func (c *cog) hold(ctx context.Context, lane string, slot int, holder string) *lease {
	rctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	l := &lease{stop: stop, finished: make(chan struct{})}
	go func() {
		defer close(l.finished)
		t := time.NewTicker(LeaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-rctx.Done():
				return
			case <-t.C:
				_ = c.leases.Renew(rctx, c.name, lane, slot, holder, LeaseTTL)
			}
		}
	}()
	l.release = func(ctx context.Context) {
		fctx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer done()
		_ = c.leases.Release(fctx, c.name, lane, slot, holder)
	}
	return l
}

// letGo stops renewing the lease and frees its slot, unless the step ends
// because its worker stops (a deploy): the prediction still runs, and the
// next attempt takes the slot back (or the lease runs out).
func (l *lease) letGo(ctx context.Context) {
	if l == nil {
		return
	}
	l.stop()
	<-l.finished
	if !tasks.Stopping(ctx) {
		l.release(ctx)
	}
}

// newReplicas are the engine's model servers: url, or each of urls.
func newReplicas(name string, c EngineConfig, cl Clients) ([]*replica, error) {
	addrs := c.URLs
	switch {
	case c.URL != "" && len(c.URLs) > 0:
		return nil, fmt.Errorf("engine %s: url and urls both set; list every replica under urls", name)
	case c.URL != "":
		addrs = []string{c.URL}
	case len(addrs) == 0:
		return nil, fmt.Errorf("engine %s: no url", name)
	}
	seen := map[string]bool{}
	out := make([]*replica, 0, len(addrs))
	for _, a := range addrs {
		base, err := url.Parse(strings.TrimRight(a, "/"))
		if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
			return nil, fmt.Errorf("engine %s: url %q is not an http(s) address", name, a)
		}
		if seen[base.String()] {
			return nil, fmt.Errorf("engine %s: url %q is listed twice", name, a)
		}
		seen[base.String()] = true
		out = append(out, &replica{base: base, http: cl.engine(base)})
	}
	return out, nil
}

// use puts a prediction on replica r, holding slot l there.
func (c *cog) use(r *replica, l *lease) {
	c.at, c.base, c.http, c.lease = r, r.base, r.http, l
	c.files.origin, c.files.own = r.base, r.http
}

// move puts a prediction whose replica does not answer on another one
// that is not down and has a free slot, letting go of the old slot: false
// when the replica answers its health check, or no other can take it (the
// step then waits for it).
func (c *cog) move(ctx context.Context, id string) bool {
	if len(c.replicas) < 2 {
		return false
	}
	was := c.at.health(ctx)
	if !down(was) {
		return false
	}
	for _, r := range c.order(id) {
		if r == c.at || down(r.health(ctx)) {
			continue
		}
		var l *lease
		if c.leases != nil {
			slot, ok, err := c.leases.Acquire(ctx, c.name, r.lane(), c.perReplica, id, LeaseTTL)
			if err != nil || !ok {
				continue
			}
			l = c.hold(ctx, r.lane(), slot, id)
		}
		tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): replica %s is %s; prediction %s moves to %s", c.name,
			c.at.base.Redacted(), was, id, r.base.Redacted()))
		c.lease.letGo(ctx)
		c.use(r, l)
		return true
	}
	return false
}

// waitAllowance is how long a step waits for its replica to take its
// prediction: the engine's wait, or its setup allowance while the replica
// loads its model (health STARTING).
func (c *cog) waitAllowance(ctx context.Context) time.Duration {
	if c.at.health(ctx) == healthStarting {
		return max(c.waitFor, c.setupFor)
	}
	return c.waitFor
}
