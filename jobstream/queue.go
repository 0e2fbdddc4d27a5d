package jobstream

import (
	"context"
	"math"
	"strconv"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// A queued job's stream sends job.queue when its place moves materially:
// its position changed, its estimate appeared or vanished, or the estimate
// moved by more than QueueETAShare of the last one sent and more than
// QueueETASeconds.
const (
	QueueETAShare   = 0.2
	QueueETASeconds = 5
)

// SeqQueue is the SSE id of job.queue: a state, not history, so it takes no
// place in the job's sequence. It is 0, below job.started, so a stream
// resumed after it sends the job's whole history, and a reader that drops
// events at or before the last one it read passes over it.
const SeqQueue int64 = 0

// QueueRefresh is how often, at most, one process reads the queue for the
// queued jobs its streams follow: after any job's change, one read for all.
var QueueRefresh = time.Second

// QueueMoved says whether next differs materially from prev, the last
// queue state a stream sent (nil: none yet).
func QueueMoved(prev, next *wire.Queue) bool {
	switch {
	case next == nil:
		return false
	case prev == nil || prev.Position != next.Position:
		return true
	case (prev.ETASeconds == nil) != (next.ETASeconds == nil):
		return true
	case prev.ETASeconds == nil:
		return false
	}
	was, now := *prev.ETASeconds, *next.ETASeconds
	d := math.Abs(float64(now - was))
	return d > QueueETASeconds && d > QueueETAShare*float64(was)
}

// QueueState is where a queued job stands, as read at At.
type QueueState struct {
	Queue *wire.Queue
	At    time.Time
}

// readQueue reads the queue state of each of the jobs ids that is queued,
// measuring the fleet once.
func readQueue(ctx context.Context, db *gorm.DB, ids []string) (map[string]QueueState, error) {
	spots, err := models.QueueSpots(ctx, db, ids)
	if err != nil || len(spots) == 0 {
		return nil, err
	}
	fleet, err := models.MeasureQueue(ctx, db)
	if err != nil {
		return nil, err
	}
	at := time.Now().UTC()
	out := make(map[string]QueueState, len(spots))
	for id, spot := range spots {
		out[id] = QueueState{Queue: queueOf(fleet, spot), At: at}
	}
	return out, nil
}

// queueOf is the wire form of a spot in the fleet.
func queueOf(fleet models.QueueFleet, spot models.QueueSpot) *wire.Queue {
	q := &wire.Queue{Position: spot.Position}
	if eta, ok := fleet.ETA(spot.Ahead); ok {
		q.ETASeconds = &eta
	}
	return q
}

// QueueFrame is the job.queue event of the snapshot's queued job at state
// st; false when the job is not queued.
func (s *Snapshot) QueueFrame(st QueueState) (Frame, bool) {
	if s.Job.Lifecycle != contract.LifecycleQueued || st.Queue == nil {
		return Frame{}, false
	}
	eta := "null"
	if st.Queue.ETASeconds != nil {
		eta = strconv.FormatInt(*st.Queue.ETASeconds, 10)
	}
	id := eventID(s.Job.ID, contract.EventQueue, strconv.FormatInt(st.Queue.Position, 10), eta)
	ev := body(&s.Job, contract.EventQueue, id, st.At)
	ev.Queue = st.Queue
	return Frame{SeqQueue, ev}, true
}

// leftQueue marks a followed job as no longer queued (under hubsMu).
func (h *Hub) leftQueue(js *jobSubs) {
	if js.queued {
		js.queued = false
		h.queued--
	}
}

// queueChanged schedules a read of where the followed queued jobs stand,
// QueueRefresh from now, unless one is due already (under hubsMu): a job
// changed, which may move them.
func (h *Hub) queueChanged() {
	if h.queued == 0 || h.queueRead {
		return
	}
	h.queueRead = true
	time.AfterFunc(QueueRefresh, h.refreshQueue)
}

// refreshQueue reads where the followed queued jobs stand, in one read for
// all, and offers each its state. A failed read is dropped: the next change
// reads again.
func (h *Hub) refreshQueue() {
	hubsMu.Lock()
	h.queueRead = false
	var ids []string
	for id, js := range h.jobs {
		if js.queued {
			ids = append(ids, id)
		}
	}
	hubsMu.Unlock()
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	states, err := readQueue(ctx, h.db, ids)
	cancel()
	if err != nil {
		return
	}
	hubsMu.Lock()
	defer hubsMu.Unlock()
	for _, id := range ids {
		js := h.jobs[id]
		if js == nil || !js.queued {
			continue
		}
		st, ok := states[id]
		if !ok {
			h.leftQueue(js) // its own change tells its streams
			continue
		}
		for s := range js.subs {
			s.offerQueue(st)
		}
	}
}
