package jobstream

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// listener holds one connection LISTENing on Channel while the hub has
// streams. ready closes after the first LISTEN (err set if it failed).
type listener struct {
	ready  chan struct{}
	err    error
	cancel context.CancelFunc
}

// reconnectDelay is the wait before a lost listening connection is opened
// again.
const reconnectDelay = time.Second

// startListener starts the hub's listener (under hubsMu).
func (h *Hub) startListener() *listener {
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{ready: make(chan struct{}), cancel: cancel}
	h.listener = l
	go func() {
		first := true
		for {
			err := h.listenOnce(ctx, func() {
				if first {
					first = false
					close(l.ready)
					return
				}
				// Notifications may have been lost while reconnecting.
				h.wakeAll()
			})
			if ctx.Err() != nil {
				if first {
					l.err = ctx.Err()
					close(l.ready)
				}
				return
			}
			if first {
				l.err = err
				close(l.ready)
				hubsMu.Lock()
				if h.listener == l {
					h.listener = nil
				}
				hubsMu.Unlock()
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(reconnectDelay):
			}
		}
	}()
	return l
}

// listenOnce LISTENs on one dedicated connection of the pool and wakes the
// hub for each notification until ctx ends or the connection fails. The
// connection is discarded afterwards, never returned to the pool listening.
func (h *Hub) listenOnce(ctx context.Context, listening func()) error {
	conn, err := h.key.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var failure error
	_ = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			failure = fmt.Errorf("the PostgreSQL driver is %T, not pgx", dc)
			return nil
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+Channel); err != nil {
			failure = err
			return driver.ErrBadConn
		}
		listening()
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				failure = err
				closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
				_ = pc.Close(closeCtx)
				cancel()
				return driver.ErrBadConn
			}
			h.wake(n.Payload)
		}
	})
	if failure == nil {
		failure = errors.New("listening connection closed")
	}
	return failure
}
