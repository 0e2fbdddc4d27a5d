package engines

import "time"

// SetPolling makes a test's steps ask the engine again after probe (async)
// and join (sync), and read the service's webhooks every join, instead of
// the production intervals, until restore.
func SetPolling(probe, join time.Duration) (restore func()) {
	p, j, w := probeEvery.Swap(int64(probe)), joinEvery.Swap(int64(join)), watchEvery.Swap(int64(join))
	return func() { probeEvery.Store(p); joinEvery.Store(j); watchEvery.Store(w) }
}
