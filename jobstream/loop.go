package jobstream

import (
	"context"
	"math"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// KeyEnded is the comment a stream ends with when its key stops working.
const KeyEnded = "the key was revoked or has expired"

// Stream is one open event stream (a job's, or an account's listen
// stream): its subscription, its lease and the key it was opened with.
// Run is the one loop both kinds of stream run.
type Stream struct {
	DB  *gorm.DB
	Sub *Sub
	// Lease is the stream's slot among limits.event_streams, renewed at
	// each heartbeat; nil: the stream holds none.
	Lease *models.EventStream
	// KeyID and KeyExpires are the stream's key; KeyID empty: a session.
	KeyID      string
	KeyExpires *time.Time
	Now        func() time.Time
	// Heartbeat is how often an idle stream sends a comment; a lease
	// outlives its last renewal by 3 heartbeats. MaxAge ends the stream.
	Heartbeat, MaxAge time.Duration
}

// Writer is where a stream writes: Comment writes a comment line, Failed
// says a write failed (the client went away).
type Writer interface {
	Comment(text string)
	Failed() bool
}

// LeaseFor is how long a stream's lease outlives its last renewal (one per
// heartbeat): the slot of a stream whose process died is free again after
// it.
func LeaseFor(heartbeat time.Duration) time.Duration { return 3 * heartbeat }

// Run sends the stream's changes until it ends: the client leaves, MaxAge
// passes, the lease is taken away, the key is revoked or expires, a write
// fails or send says the stream is done. send gets each changed snapshot
// (of the job, or of each of the account's jobs); queue gets where a
// queued job stands (a job's stream only).
func (s *Stream) Run(ctx context.Context, w Writer, send func(*Snapshot) (done bool), queue func(QueueState)) {
	heartbeat := time.NewTicker(s.Heartbeat)
	defer heartbeat.Stop()
	maxAge := time.NewTimer(s.MaxAge)
	defer maxAge.Stop()
	// keyEnds fires when the key expires (a roll's grace ends): the stream
	// ends with it.
	keyEnds := time.NewTimer(untilExpiry(s.KeyExpires, s.Now()))
	defer keyEnds.Stop()
	for !w.Failed() {
		select {
		case <-ctx.Done():
			return
		case <-maxAge.C:
			return
		case <-heartbeat.C:
			w.Comment("heartbeat")
			if s.Lease == nil {
				continue
			}
			alive, err := models.RenewStream(ctx, s.DB, s.Lease.ID, s.Now(), LeaseFor(s.Heartbeat))
			if err == nil && !alive {
				w.Comment(KeyEnded)
				return
			}
		case <-s.Sub.KeyChanged:
			if s.keyEnded(ctx, keyEnds) {
				w.Comment(KeyEnded)
				return
			}
		case <-keyEnds.C:
			if s.keyEnded(ctx, keyEnds) {
				w.Comment(KeyEnded)
				return
			}
		case snap := <-s.Sub.C:
			// A failed read ends the stream: the client resumes with
			// Last-Event-ID.
			if snap.Err != nil || send(snap) {
				return
			}
		case st := <-s.Sub.Queue:
			if queue != nil {
				queue(st)
			}
		case <-s.Sub.Ready:
			for _, snap := range s.Sub.Take() {
				if send(snap) {
					return
				}
			}
		}
	}
}

// keyEnded reads the stream's key again after it changed or its expiry
// came: true when it no longer works. Otherwise keyEnds is set to its
// (possibly new) expiry.
func (s *Stream) keyEnded(ctx context.Context, keyEnds *time.Timer) bool {
	if s.KeyID == "" {
		return false
	}
	now := s.Now()
	usable, expires, err := models.KeyUsable(ctx, s.DB, s.KeyID, now)
	if err != nil {
		return false // read again at the next change, expiry or renewal
	}
	if usable {
		keyEnds.Reset(untilExpiry(expires, now))
	}
	return !usable
}

// untilExpiry is the time from now to a key's expiry; for a key that never
// expires, longer than any stream.
func untilExpiry(expires *time.Time, now time.Time) time.Duration {
	if expires == nil {
		return math.MaxInt64
	}
	return expires.Sub(now)
}
