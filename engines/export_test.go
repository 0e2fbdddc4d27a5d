package engines

import "time"

// SetPolling makes a test's steps ask the engine again after probe (async)
// and join (sync), and read the service's webhooks every join, instead of
// the production intervals, until restore.
func SetPolling(probe, join time.Duration) (restore func()) {
	p, j, w := probeEvery, joinEvery, watchEvery
	probeEvery, joinEvery, watchEvery = probe, join, join
	return func() { probeEvery, joinEvery, watchEvery = p, j, w }
}
