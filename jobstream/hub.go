package jobstream

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// Channel is the PostgreSQL notification channel; a payload is a job id.
const Channel = models.JobEventsChannel

// Notify tells every open stream of a job, in any process, that the job
// changed: the activities call it after they record the job's start, an
// output, or its end. It is cheap and idempotent (a stream sends only what
// it has not sent); an error means only that open streams learn of the
// change later (at the next one, or when they resume).
func Notify(ctx context.Context, db *gorm.DB, jobID string) error {
	if models.IsPostgres(db) {
		// The jobs table notifies Channel of every change itself
		// (migration 0010_job_notify): nothing to send.
		return nil
	}
	if h := lookup(db); h != nil {
		h.wake(jobID)
	}
	return nil
}

// KeyChanged tells every open stream of a key in this process that the key
// was revoked or its expiry changed: the API calls it after it revokes or
// rolls a key. On PostgreSQL it does nothing: the api_keys table notifies
// every process itself (migration 0014_event_streams).
func KeyChanged(ctx context.Context, db *gorm.DB, keyID string) {
	if models.IsPostgres(db) {
		return
	}
	if h := lookup(db); h != nil {
		h.keyChanged(keyID)
	}
}

// Sub is one stream's subscription to a job: C holds the job's latest
// snapshot after each change (older ones are replaced: a snapshot holds
// everything before it). Queue holds, while the job is queued, where it
// stands after other jobs changed (the latest, likewise). KeyChanged
// receives when the stream's key was revoked or its expiry changed (read
// the key again); it never receives for a subscription without a key.
type Sub struct {
	C <-chan *Snapshot
	// Queue: see above; an account subscription's never receives.
	Queue <-chan QueueState
	// Ready receives when an account subscription has snapshots to Take
	// (nil for a job's subscription).
	Ready      <-chan struct{}
	KeyChanged <-chan struct{}
	c          chan *Snapshot
	q          chan QueueState
	k          chan struct{}
	hub        *Hub
	jobID      string
	keyID      string
	once       sync.Once
	// account is the user id of an account subscription (jobID empty);
	// pending holds its jobs' latest unread snapshots, and ready receives
	// when there are some.
	account uint64
	pending map[string]*Snapshot
	ready   chan struct{}
}

// Close ends the subscription.
func (s *Sub) Close() { s.once.Do(func() { s.hub.unsubscribe(s) }) }

// offer replaces any unread snapshot with snap (called under the hub's lock,
// the only sender).
func (s *Sub) offer(snap *Snapshot) {
	select {
	case <-s.c:
	default:
	}
	s.c <- snap
}

// offerQueue replaces any unread queue state with st (under the hub's lock).
func (s *Sub) offerQueue(st QueueState) {
	select {
	case <-s.q:
	default:
	}
	s.q <- st
}

// Subscribe opens a subscription to a job's changes on db, and to the
// changes of the key keyID (none when empty). On PostgreSQL it returns once
// the process listens on Channel, so no change made after it returns is
// missed; read the job (and the key) after subscribing, not before.
func Subscribe(ctx context.Context, db *gorm.DB, jobID, keyID string) (*Sub, error) {
	return subscribe(ctx, db, jobID, 0, keyID)
}

// SubscribeAccount opens a subscription to the changes of every job of the
// account userID (and of the key keyID, as Subscribe): Ready receives when
// Take has snapshots. While a process has one, every job change it hears of
// costs one read of the job (to learn its account), shared by all its
// subscriptions. Changes missed while a lost PostgreSQL connection
// reconnects are not replayed.
func SubscribeAccount(ctx context.Context, db *gorm.DB, userID uint64, keyID string) (*Sub, error) {
	if userID == 0 {
		return nil, errors.New("jobstream: an account subscription needs the account's id")
	}
	return subscribe(ctx, db, "", userID, keyID)
}

// Take returns the latest snapshot of each of an account subscription's jobs
// that changed since the last Take, and forgets them.
func (s *Sub) Take() []*Snapshot {
	hubsMu.Lock()
	defer hubsMu.Unlock()
	out := make([]*Snapshot, 0, len(s.pending))
	for id, snap := range s.pending {
		out = append(out, snap)
		delete(s.pending, id)
	}
	slices.SortFunc(out, func(a, b *Snapshot) int { return a.Job.UpdatedAt.Compare(b.Job.UpdatedAt) })
	return out
}

// offerAccount keeps snap as its job's pending snapshot (under the hub's
// lock) and signals Ready.
func (s *Sub) offerAccount(snap *Snapshot) {
	s.pending[snap.Job.ID] = snap
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func subscribe(ctx context.Context, db *gorm.DB, jobID string, account uint64, keyID string) (*Sub, error) {
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	hubsMu.Lock()
	h := hubs[sqlDB]
	if h == nil {
		h = &Hub{
			db:       db,
			key:      sqlDB,
			pg:       models.IsPostgres(db),
			jobs:     map[string]*jobSubs{},
			keys:     map[string]map[*Sub]struct{}{},
			accounts: map[uint64]map[*Sub]struct{}{},
		}
		hubs[sqlDB] = h
	}
	s := h.subscribe(jobID, keyID)
	if account != 0 {
		s.account, s.pending, s.ready = account, map[string]*Snapshot{}, make(chan struct{}, 1)
		s.Ready = s.ready
		if h.accounts[account] == nil {
			h.accounts[account] = map[*Sub]struct{}{}
		}
		h.accounts[account][s] = struct{}{}
	}
	l := h.listener
	if h.pg && l == nil {
		l = h.startListener()
	}
	hubsMu.Unlock()
	if l == nil {
		return s, nil
	}
	select {
	case <-l.ready:
	case <-ctx.Done():
		s.Close()
		return nil, ctx.Err()
	}
	if l.err != nil {
		s.Close()
		return nil, fmt.Errorf("listen for job events: %w", l.err)
	}
	return s, nil
}

// hubs holds the hub of each database pool with open streams; hubsMu also
// guards every hub's subscriptions and listener.
var (
	hubsMu sync.Mutex
	hubs   = map[*sql.DB]*Hub{}
)

func lookup(db *gorm.DB) *Hub {
	sqlDB, err := db.DB()
	if err != nil {
		return nil
	}
	hubsMu.Lock()
	defer hubsMu.Unlock()
	return hubs[sqlDB]
}

// Hub fans a job's changes out to its streams in one process: one read of
// the job per change, whatever the number of streams.
type Hub struct {
	db   *gorm.DB
	key  *sql.DB
	pg   bool
	jobs map[string]*jobSubs
	// keys are the subscriptions of each key (those with one).
	keys map[string]map[*Sub]struct{}
	// accounts are the account subscriptions of each user id.
	accounts map[uint64]map[*Sub]struct{}
	listener *listener
	// queued counts the followed jobs that may still be queued; queueRead
	// is set while a read of their queue is due or running.
	queued    int
	queueRead bool
}

type jobSubs struct {
	subs map[*Sub]struct{}
	// reading is set while a read of the job runs; dirty asks for another
	// read after it (a change came in meanwhile).
	reading, dirty bool
	// queued is cleared once the job is known to have left the queue.
	queued bool
}

func (h *Hub) subscribe(jobID, keyID string) *Sub {
	c, q, k := make(chan *Snapshot, 1), make(chan QueueState, 1), make(chan struct{}, 1)
	s := &Sub{C: c, c: c, Queue: q, q: q, KeyChanged: k, k: k, hub: h, jobID: jobID, keyID: keyID}
	if jobID != "" {
		js := h.jobs[jobID]
		if js == nil {
			js = &jobSubs{subs: map[*Sub]struct{}{}}
			h.jobs[jobID] = js
		}
		if len(js.subs) == 0 && !js.queued {
			// Followed by a stream from now (the entry may be an account
			// subscription's read): queued until a read says otherwise.
			js.queued = true
			h.queued++
		}
		js.subs[s] = struct{}{}
	}
	if keyID != "" {
		if h.keys[keyID] == nil {
			h.keys[keyID] = map[*Sub]struct{}{}
		}
		h.keys[keyID][s] = struct{}{}
	}
	return s
}

func (h *Hub) unsubscribe(s *Sub) {
	hubsMu.Lock()
	defer hubsMu.Unlock()
	if js := h.jobs[s.jobID]; js != nil {
		delete(js.subs, s)
		if len(js.subs) == 0 {
			h.leftQueue(js)
			delete(h.jobs, s.jobID)
		}
	}
	if ks := h.keys[s.keyID]; ks != nil {
		delete(ks, s)
		if len(ks) == 0 {
			delete(h.keys, s.keyID)
		}
	}
	if as := h.accounts[s.account]; as != nil {
		delete(as, s)
		if len(as) == 0 {
			delete(h.accounts, s.account)
		}
	}
	h.stopIfIdle()
}

// stopIfIdle stops the listener and forgets the hub once it has no
// subscription (under hubsMu).
func (h *Hub) stopIfIdle() {
	if len(h.jobs) > 0 || len(h.accounts) > 0 {
		return
	}
	if h.listener != nil {
		h.listener.cancel()
		h.listener = nil
	}
	if hubs[h.key] == h {
		delete(hubs, h.key)
	}
}

// wake reads the job once and offers the snapshot to its streams; changes
// that arrive during the read make one more read after it. A key id tells
// the key's streams instead.
func (h *Hub) wake(jobID string) {
	if strings.HasPrefix(jobID, models.KeyIDPrefix) {
		h.keyChanged(jobID)
		return
	}
	hubsMu.Lock()
	h.queueChanged()
	js := h.jobs[jobID]
	if js == nil && len(h.accounts) == 0 {
		hubsMu.Unlock()
		return
	}
	if js == nil {
		// Only account subscriptions may want it: an entry without
		// subscriptions for the time of the read.
		js = &jobSubs{subs: map[*Sub]struct{}{}}
		h.jobs[jobID] = js
	}
	if js.reading {
		js.dirty = true
		hubsMu.Unlock()
		return
	}
	js.reading = true
	hubsMu.Unlock()
	go h.refresh(jobID)
}

// keyChanged tells the streams of a key that it changed.
func (h *Hub) keyChanged(keyID string) {
	hubsMu.Lock()
	defer hubsMu.Unlock()
	for s := range h.keys[keyID] {
		select {
		case s.k <- struct{}{}:
		default: // one is pending already
		}
	}
}

// wakeAll refreshes every subscribed job and tells every key's streams to
// read their key again (after notifications may have been missed).
func (h *Hub) wakeAll() {
	hubsMu.Lock()
	ids := make([]string, 0, len(h.jobs)+len(h.keys))
	for id := range h.jobs {
		ids = append(ids, id)
	}
	for id := range h.keys {
		ids = append(ids, id)
	}
	hubsMu.Unlock()
	for _, id := range ids {
		h.wake(id)
	}
}

// readTimeout bounds one read of a job for its streams.
const readTimeout = 10 * time.Second

func (h *Hub) refresh(jobID string) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
		snap, err := Load(ctx, h.db, jobID)
		cancel()
		if err != nil {
			snap = &Snapshot{Err: err}
		}
		hubsMu.Lock()
		js := h.jobs[jobID]
		if js == nil {
			hubsMu.Unlock()
			return
		}
		if snap.Err == nil && snap.Job.Lifecycle != contract.LifecycleQueued {
			h.leftQueue(js)
		}
		for s := range js.subs {
			s.offer(snap)
		}
		if snap.Err == nil {
			for s := range h.accounts[snap.Job.UserID] {
				s.offerAccount(snap)
			}
		}
		if !js.dirty {
			js.reading = false
			if len(js.subs) == 0 {
				h.leftQueue(js)
				delete(h.jobs, jobID)
				h.stopIfIdle()
			}
			hubsMu.Unlock()
			return
		}
		js.dirty = false
		hubsMu.Unlock()
	}
}
