package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// engineSlots are the external engines the registry's tasks run on, each
// with its capacity: how many of its steps run at once across every worker
// (its replicas × its concurrency).
func engineSlots(r *tasks.Registry) map[string]int {
	out := map[string]int{}
	if r == nil {
		return out
	}
	for _, d := range r.Runnable() {
		er, ok := d.Runner.(interface {
			EngineName() string
			EngineSlots() int
		})
		if ok {
			out[er.EngineName()] = max(out[er.EngineName()], er.EngineSlots(), 1)
		}
	}
	return out
}

// engineWorkers poll each engine's steps queue (contract.EngineQueue): its
// steps wait there for a free model instead of holding the built-in steps'
// slots. With a database, a worker polls only with a slot of the engine's
// capacity leased from it (queueSlots), so every worker together runs at
// most the engine's capacity and the steps beyond it wait in the queue,
// under the job's start deadline and the engine's queue wait, not started
// and not an attempt. Without one, each worker has the whole capacity.
func engineWorkers(c client.Client, queue string, acts *activities.Activities) []sdkworker.Worker {
	slots := engineSlots(acts.Tasks)
	var out []sdkworker.Worker
	for _, name := range slices.Sorted(maps.Keys(slots)) {
		o := sdkworker.Options{
			MaxConcurrentActivityTaskPollers: min(slots[name], 2),
			DisableWorkflowWorker:            true,
			WorkerStopTimeout:                5 * time.Second,
			MaxHeartbeatThrottleInterval:     StepHeartbeatInterval,
		}
		if acts.DB != nil {
			o.Tuner = engineTuner(newQueueSlots(acts.DB, name, slots[name], acts.Log))
		} else {
			o.MaxConcurrentActivityExecutionSize = slots[name]
		}
		w := sdkworker.New(c, contract.EngineQueue(queue, name), o)
		w.RegisterActivity(acts)
		out = append(out, w)
	}
	return out
}

// engineTuner hands out an engine queue's activity slots from s; the
// worker polls no workflows, and its local activities and Nexus tasks are
// none.
func engineTuner(s sdkworker.SlotSupplier) sdkworker.WorkerTuner {
	fixed := func() sdkworker.SlotSupplier {
		f, _ := sdkworker.NewFixedSizeSlotSupplier(1)
		return f
	}
	t, _ := sdkworker.NewCompositeTuner(sdkworker.CompositeTunerOptions{
		WorkflowSlotSupplier: fixed(), ActivitySlotSupplier: s, LocalActivitySlotSupplier: fixed(),
		NexusSlotSupplier: fixed(), SessionActivitySlotSupplier: fixed(),
	})
	return t
}

// queueSlotTTL is how long a worker's slot of an engine's queue lasts
// unless renewed (every third of it): a worker that died frees its slots
// for the others within it.
const queueSlotTTL = 15 * time.Second

// queueSlotEvery is how often a worker waiting for a slot of an engine's
// queue asks again.
var queueSlotEvery = time.Second

// queueSlots is a Temporal slot supplier of an engine's queue backed by
// the database's leases (models.EngineLease, lane "queue"): a worker
// polls the queue only while it holds one of the engine's capacity slots,
// whichever worker process holds the others.
type queueSlots struct {
	db       *gorm.DB
	engine   string
	capacity int
	log      *zap.Logger
	// self names this process among the holders; n counts its permits.
	self string
	n    atomic.Int64
}

// queueLane is the lane of an engine's queue slots among its leases.
const queueLane = models.EngineQueueLane

func newQueueSlots(db *gorm.DB, engine string, capacity int, log *zap.Logger) *queueSlots {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	host, _ := os.Hostname()
	if log == nil {
		log = zap.NewNop()
	}
	return &queueSlots{db: db, engine: engine, capacity: capacity, log: log,
		self: fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))}
}

// heldSlot is a permit's lease: its slot, its holder, and the renewal to stop.
type heldSlot struct {
	slot   int
	holder string
	stop   context.CancelFunc
	once   sync.Once
}

// ReserveSlot implements sdkworker.SlotSupplier: it waits for a free slot
// of the engine's capacity.
func (q *queueSlots) ReserveSlot(ctx context.Context, _ sdkworker.SlotReservationInfo) (*sdkworker.SlotPermit, error) {
	holder := fmt.Sprintf("%s/%d", q.self, q.n.Add(1))
	for {
		p, err := q.try(ctx, holder)
		if p != nil || err != nil {
			return p, err
		}
		t := time.NewTimer(queueSlotEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// TryReserveSlot implements sdkworker.SlotSupplier (eager activities).
func (q *queueSlots) TryReserveSlot(_ sdkworker.SlotReservationInfo) *sdkworker.SlotPermit {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, _ := q.try(ctx, fmt.Sprintf("%s/%d", q.self, q.n.Add(1)))
	return p
}

// try leases a free slot for holder: nil, nil when none is free.
func (q *queueSlots) try(ctx context.Context, holder string) (*sdkworker.SlotPermit, error) {
	slot, ok, err := models.AcquireEngineLease(ctx, q.db, q.engine, queueLane, q.capacity, holder, time.Now(),
		queueSlotTTL)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		q.log.Warn("engine queue: no slot leased, the database did not answer; asking again",
			zap.String("engine", q.engine), zap.Error(err))
		return nil, nil
	}
	if !ok {
		return nil, nil
	}
	rctx, stop := context.WithCancel(context.Background())
	h := &heldSlot{slot: slot, holder: holder, stop: stop}
	go q.renew(rctx, h)
	return &sdkworker.SlotPermit{UserData: h}, nil
}

// renew extends h's lease every third of its time until it is released.
func (q *queueSlots) renew(ctx context.Context, h *heldSlot) {
	t := time.NewTicker(queueSlotTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := models.RenewEngineLease(ctx, q.db, q.engine, queueLane, h.slot, h.holder, time.Now(), queueSlotTTL)
		if errors.Is(err, models.ErrLeaseLost) {
			q.log.Warn("engine queue: a slot's lease ran out before it was renewed (the database was slow); "+
				"another worker may use it meanwhile", zap.String("engine", q.engine), zap.Int("slot", h.slot))
		}
	}
}

// MarkSlotUsed implements sdkworker.SlotSupplier.
func (q *queueSlots) MarkSlotUsed(sdkworker.SlotMarkUsedInfo) {}

// ReleaseSlot implements sdkworker.SlotSupplier: the slot is freed for
// every worker.
func (q *queueSlots) ReleaseSlot(info sdkworker.SlotReleaseInfo) { q.release(info.Permit()) }

// release frees permit p's slot.
func (q *queueSlots) release(p *sdkworker.SlotPermit) {
	h, ok := p.UserData.(*heldSlot)
	if !ok {
		return
	}
	h.once.Do(func() {
		h.stop()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := models.ReleaseEngineLease(ctx, q.db, q.engine, queueLane, h.slot, h.holder); err != nil {
			q.log.Warn("engine queue: a slot was not freed; its lease runs out instead",
				zap.String("engine", q.engine), zap.Error(err))
		}
	})
}

// MaxSlots implements sdkworker.SlotSupplier.
func (q *queueSlots) MaxSlots() int { return q.capacity }
