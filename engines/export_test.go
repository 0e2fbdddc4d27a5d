package engines

import "time"

// SetPolling makes a test's steps ask the engine again after probe (async)
// and join (sync) instead of the production intervals, until restore.
func SetPolling(probe, join time.Duration) (restore func()) {
	p, j := probeEvery, joinEvery
	probeEvery, joinEvery = probe, join
	return func() { probeEvery, joinEvery = p, j }
}
