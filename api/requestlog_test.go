package api

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestRequestLogLosesNothingOnClose(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.Postgres)
	rl := middleware.NewRequestLog(db, zaptest.NewLogger(t))
	const writers, each = 8, 300 // more than one batch, from many requests at once
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				rl.Record(
					models.RequestLog{
						RequestID: fmt.Sprintf("req_%d_%d", w, i),
						UserID:    1,
						APIKeyID:  "key_a",
						Method:    "GET",
						Path:      "/v1/jobs",
						Status:    200,
						CreatedAt: time.Now().UTC(),
					},
				)
			}
		}()
	}
	wg.Wait()
	require.NoError(t, rl.Close())
	var n int64
	require.NoError(t, db.Model(&models.RequestLog{}).Count(&n).Error)
	require.Equal(t, int64(writers*each), n)

	rl.Record(
		models.RequestLog{
			RequestID: "req_late",
			UserID:    1,
			APIKeyID:  "key_a",
			Method:    "GET",
			Path:      "/",
			Status:    200,
			CreatedAt: time.Now(),
		},
	)
	require.NoError(t, db.Model(&models.RequestLog{}).Count(&n).Error)
	require.Equal(t, int64(writers*each+1), n, "a call after Close is written directly")
}

func TestRequestLogRecordsKeyedCallsInTheBackground(t *testing.T) {
	t.Parallel()
	var rl *middleware.RequestLog
	e := newEnv(t, testenv.SQLite, func(d *Deps) {
		rl = middleware.NewRequestLog(d.DB, d.Log)
		d.RequestLog = rl
	})
	t.Cleanup(func() { _ = rl.Close() })
	require.Equal(
		t,
		200,
		e.send("GET", "/v1/account/balance", "", with(keyed(e.key), "X-Request-ID", "mine-1")...).code,
	)
	require.Equal(t, 404, e.send("GET", "/v1/jobs/j_nope", "", keyed(e.key)...).code)
	require.Equal(t, 200, e.send("GET", "/v1/meta", "").code) // keyless: not a call made by a key
	rl.Flush()

	var rows []models.RequestLog
	require.NoError(t, e.db.Order("id").Find(&rows).Error)
	require.Len(t, rows, 2)
	require.Equal(t, "/v1/account/balance", rows[0].Route)
	require.Equal(t, "mine-1", rows[0].ClientRequestID)
	require.Equal(t, e.keyID, rows[0].APIKeyID)
	require.Equal(t, CurrentVersion, rows[0].ServiceVersion)
	require.Equal(t, 404, rows[1].Status)
	require.Equal(t, "job_not_found", rows[1].ErrorCode)
	require.Equal(t, "/v1/jobs/{job_id}", rows[1].Route)
}
