package worker

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/taskplatform/taskplatform/testenv"
)

func TestTwoWorkersShareAnEnginesCapacity(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			db := testenv.DB(t, b)
			defer func(d time.Duration) { queueSlotEvery = d }(queueSlotEvery)
			queueSlotEvery = 20 * time.Millisecond
			// Two worker processes, an engine of two replicas × one prediction.
			w1, w2 := newQueueSlots(db, "gpu", 2, nil), newQueueSlots(db, "gpu", 2, nil)
			ctx := context.Background()
			p1, err := w1.ReserveSlot(ctx, nil)
			require.NoError(t, err)
			p2, err := w2.ReserveSlot(ctx, nil)
			require.NoError(t, err)
			require.Nil(t, w1.TryReserveSlot(nil), "the capacity is taken, whichever worker holds it")
			require.Nil(t, w2.TryReserveSlot(nil))

			third := make(chan *sdkworker.SlotPermit, 1)
			go func() {
				p, _ := w2.ReserveSlot(ctx, nil)
				third <- p
			}()
			select {
			case <-third:
				t.Fatal("a third slot was handed out while two were held")
			case <-time.After(300 * time.Millisecond):
			}
			w1.release(p1) // worker 1's step ended: the slot is worker 2's
			select {
			case p := <-third:
				require.NotNil(t, p)
				w2.release(p)
			case <-time.After(10 * time.Second):
				t.Fatal("a freed slot was not handed to the waiting worker")
			}
			w2.release(p2)

			wait, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			held, err := w1.ReserveSlot(wait, nil)
			require.NoError(t, err, "all free again")
			w1.release(held)
		})
	}
}
