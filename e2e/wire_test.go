package e2e_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWebhookCarriesTheResultTheAPIAnswers: a job.succeeded body's result
// is the same object GET /v1/jobs/{job_id}/result answers, and its job
// fields agree with GET /v1/jobs/{job_id}.
func TestWebhookCarriesTheResultTheAPIAnswers(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.generate?webhook_url="+rcv.srv.URL+"/hook",
		pattern(2),
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)

	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 100*time.Millisecond)
	hook := rcv.deliveries()[0].event
	require.Equal(t, "job.succeeded", hook["event"])

	result := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusOK, result.status)
	var answered any
	require.NoError(t, json.Unmarshal(result.body, &answered))
	require.Equal(t, answered, hook["result"], "one wire model for the API and webhooks")

	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)
	for _, field := range []string{"job_id", "task", "lifecycle", "outcome", "progress"} {
		require.Equal(t, job[field], hook[field], field)
	}
}
