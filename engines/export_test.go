package engines

import "time"

// SetPolling makes a test's steps ask the engine again after probe (async)
// and join (sync) instead of the production intervals, until restore.
func SetPolling(probe, join time.Duration) (restore func()) {
	p, j := probeEvery.Swap(int64(probe)), joinEvery.Swap(int64(join))
	return func() { probeEvery.Store(p); joinEvery.Store(j) }
}
