package jobstream

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// recorder is a stream's writer that keeps its comments.
type recorder struct {
	comments []string
	failed   bool
}

func (r *recorder) Comment(text string) { r.comments = append(r.comments, text) }
func (r *recorder) Failed() bool        { return r.failed }

func loopStream(sub *Sub, maxAge time.Duration) *Stream {
	return &Stream{Sub: sub, Now: time.Now, Heartbeat: 10 * time.Millisecond, MaxAge: maxAge}
}

// TestStreamRunEndsWhenSendIsDone checks that a job's stream ends after the
// snapshot send says is the last (its terminal event), and that a queue
// state goes to queue meanwhile.
func TestStreamRunEndsWhenSendIsDone(t *testing.T) {
	c, q := make(chan *Snapshot, 3), make(chan QueueState, 1)
	sub := &Sub{C: c, Queue: q}
	q <- QueueState{}
	first, last, after := &Snapshot{Job: models.Job{ID: "j_1"}}, &Snapshot{Job: models.Job{ID: "j_1"}},
		&Snapshot{Job: models.Job{ID: "j_1"}}
	c <- first
	var sent []*Snapshot
	queued := 0
	go func() {
		time.Sleep(50 * time.Millisecond)
		c <- last
		c <- after // never sent: the stream ended with last
	}()
	loopStream(sub, time.Minute).Run(context.Background(), &recorder{}, func(s *Snapshot) bool {
		sent = append(sent, s)
		return s == last
	}, func(QueueState) { queued++ })
	require.Equal(t, []*Snapshot{first, last}, sent)
	require.Equal(t, 1, queued)
}

// TestStreamRunEndsOnAFailedRead checks that a snapshot whose read failed
// ends the stream without being sent: the client resumes with
// Last-Event-ID.
func TestStreamRunEndsOnAFailedRead(t *testing.T) {
	c := make(chan *Snapshot, 2)
	c <- &Snapshot{Err: context.DeadlineExceeded}
	c <- &Snapshot{} // never sent: the stream ended at the failed read
	loopStream(&Sub{C: c}, time.Minute).Run(context.Background(), &recorder{}, func(*Snapshot) bool {
		t.Fatal("a failed read is not sent")
		return false
	}, nil)
}

// TestStreamRunHeartbeatsUntilMaxAge checks that an idle stream sends
// heartbeats and ends at its maximum age, and that an account's stream
// sends each job Take returns.
func TestStreamRunHeartbeatsUntilMaxAge(t *testing.T) {
	ready := make(chan struct{}, 1)
	sub := &Sub{Ready: ready, pending: map[string]*Snapshot{
		"j_1": {Job: models.Job{ID: "j_1"}}, "j_2": {Job: models.Job{ID: "j_2"}},
	}}
	ready <- struct{}{}
	w := &recorder{}
	var sent []string
	loopStream(sub, 100*time.Millisecond).Run(context.Background(), w, func(s *Snapshot) bool {
		sent = append(sent, s.Job.ID)
		return false
	}, nil)
	require.ElementsMatch(t, []string{"j_1", "j_2"}, sent)
	require.Contains(t, w.comments, "heartbeat")
	require.NotContains(t, w.comments, KeyEnded, "no key, no lease: nothing ends it but its age")
}

// TestStreamRunStopsWhenAWriteFailed checks that a stream whose client went
// away sends nothing more.
func TestStreamRunStopsWhenAWriteFailed(t *testing.T) {
	c := make(chan *Snapshot, 1)
	c <- &Snapshot{}
	loopStream(&Sub{C: c}, time.Minute).Run(context.Background(), &recorder{failed: true}, func(*Snapshot) bool {
		t.Fatal("nothing is sent after a failed write")
		return false
	}, nil)
}
