package e2e_test

import (
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// TestIdempotencyKey: the same key and the same request answer the first
// job; the same key with anything else that shapes the job — the body, the
// webhook_url, the start deadline — answers 409 idempotency_key_reused and
// holds nothing.
func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	const key = "k-1"
	plain := "/v1/tasks/pattern.generate"
	hooked := func(path string) string { return plain + "?webhook_url=" + url.QueryEscape(rcv.srv.URL+path) }

	first := s.do(http.MethodPost, hooked("/a"), pattern(2), "Idempotency-Key", key, "X-Service-Start-Timeout", "30")
	require.Equal(t, http.StatusAccepted, first.status, "%s", first.body)
	again := s.do(http.MethodPost, hooked("/a"), pattern(2), "Idempotency-Key", key, "X-Service-Start-Timeout", "30")
	require.Equal(t, http.StatusAccepted, again.status, "%s", again.body)
	require.Equal(t, first.json(t)["job_id"], again.json(t)["job_id"])
	require.Equal(t, first.header.Get("X-Service-Credits"), again.header.Get("X-Service-Credits"))
	require.Equal(t, first.header.Get("X-Service-Credit-Type"), again.header.Get("X-Service-Credit-Type"))

	for _, tc := range []struct {
		name    string
		path    string
		body    map[string]any
		headers []string
	}{
		{name: "another body", path: hooked("/a"), body: pattern(3), headers: []string{"X-Service-Start-Timeout", "30"}},
		{name: "another webhook_url", path: hooked("/b"), body: pattern(2), headers: []string{"X-Service-Start-Timeout",
			"30"}},
		{name: "no webhook_url", path: plain, body: pattern(2), headers: []string{"X-Service-Start-Timeout", "30"}},
		{name: "another start timeout", path: hooked("/a"), body: pattern(2), headers: []string{"X-Service-Start-Timeout",
			"60"}},
		{name: "no start timeout", path: hooked("/a"), body: pattern(2)},
	} {
		res := s.do(http.MethodPost, tc.path, tc.body, append([]string{"Idempotency-Key", key}, tc.headers...)...)
		require.Equal(t, http.StatusConflict, res.status, "%s: %s", tc.name, res.body)
		require.Equal(t, "idempotency_key_reused", res.errorCode(t), tc.name)
	}

	var holds int64
	require.NoError(
		t,
		s.db.Model(&models.LedgerEntry{}).
			Where("user_id = ? AND kind = ?", s.userID, models.LedgerHold).
			Count(&holds).
			Error,
	)
	require.Equal(t, int64(1), holds)
}

func TestConcurrentIdenticalSubmitsMakeOneJob(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1000})
	var mu sync.Mutex
	var answers []response
	var errs []error
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.trySubmit(pattern(1), "Idempotency-Key", "same")
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			answers = append(answers, res)
		}()
	}
	wg.Wait()
	require.Empty(t, errs)
	ids := map[string]int{}
	for _, res := range answers {
		if res.status == http.StatusAccepted {
			ids[res.json(t)["job_id"].(string)]++
			continue
		}
		require.Equal(t, http.StatusConflict, res.status, "%s", res.body)
		require.Equal(t, "request_in_progress", res.errorCode(t))
		require.Equal(t, true, res.json(t)["error"].(map[string]any)["retryable"])
	}
	require.Len(t, ids, 1, "one job id across every accepted answer")
	var jobs, holds int64
	require.NoError(t, s.db.Model(&models.Job{}).Where("user_id = ?", s.userID).Count(&jobs).Error)
	require.NoError(
		t,
		s.db.Model(&models.LedgerEntry{}).
			Where("user_id = ? AND kind = ?", s.userID, models.LedgerHold).
			Count(&holds).
			Error,
	)
	require.Equal(t, int64(1), jobs)
	require.Equal(t, int64(1), holds)
}
