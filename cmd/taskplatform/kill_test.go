package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestWorkerKilledMidJobLosesOnlyItsSteps runs two dev processes as one
// fleet — one Temporal server, one PostgreSQL schema, one data dir (blobs,
// the dev key) — so their workers share a job's outputs side by side. The
// first is SIGKILLed while a step of the job runs on it: the job completes
// on the second, and every output is stored once and charged once.
func TestWorkerKilledMidJobLosesOnlyItsSteps(t *testing.T) {
	t.Parallel()
	srv, err := testenv.StartTemporal()
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Stop() })
	dsn := testenv.PostgresSchemaURL(t)
	dir := t.TempDir()
	env := []string{"TP_DATABASE_URL=" + dsn, "TP_TEMPORAL_ADDRESS=" + srv.FrontendHostPort(),
		"TP_DEV_STEP_DELAY=2s"}
	victim := startReady(t, dir, "", env...)
	survivor := startReady(t, dir, "", env...)
	key := victim.key(t)

	const outputs = 8
	send := func(base, method, path, body string) map[string]any {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Key "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Less(t, res.StatusCode, 300, "%s %s: %s", method, path, raw)
		var out map[string]any
		require.NoError(t, json.Unmarshal(raw, &out), "%s", raw)
		return out
	}
	job := send(victim.base, http.MethodPost, "/v1/tasks/pattern.generate",
		`{"kind":"stripes","colors":["#1F3A5F","#F2C14E"],"count":`+strconv.Itoa(outputs)+`,"resolution":"512"}`)
	id := job["job_id"].(string)

	// Kill the victim while a step of the job runs on it (its worker
	// identity is pid@host).
	victimWorker := strconv.Itoa(victim.cmd.Process.Pid) + "@"
	require.Eventually(t, func() bool {
		d, err := srv.Client().DescribeWorkflowExecution(context.Background(), id, "")
		if err != nil {
			return false
		}
		for _, a := range d.GetPendingActivities() {
			if a.GetActivityType().GetName() == contract.ActivityRunStep &&
				a.GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED &&
				strings.HasPrefix(a.GetLastWorkerIdentity(), victimWorker) {
				return true
			}
		}
		return false
	}, time.Minute, 20*time.Millisecond, "a step of the job runs on the first process")
	require.NoError(t, victim.cmd.Process.Signal(syscall.SIGKILL))
	<-victim.done

	var ended map[string]any
	require.Eventually(t, func() bool {
		ended = send(survivor.base, http.MethodGet, "/v1/jobs/"+id, "")
		return ended["lifecycle"] == contract.LifecycleTerminal
	}, 2*time.Minute, 200*time.Millisecond, "the job completes on the other process")
	require.Equal(t, contract.OutcomeSucceeded, ended["outcome"])
	require.EqualValues(t, outputs, ended["progress"].(map[string]any)["done"])

	ctx := context.Background()
	db, err := models.Open(ctx, models.OpenConfig{URL: dsn})
	require.NoError(t, err)
	t.Cleanup(func() { _ = models.Close(db) })
	var files []models.File
	require.NoError(t, db.WithContext(ctx).Where("job_id = ?", id).Order("idx").Find(&files).Error)
	require.Len(t, files, outputs, "every output stored once")
	for i, f := range files {
		require.Equal(t, i, f.Index)
	}
	row, err := models.JobByIDAny(ctx, db, id)
	require.NoError(t, err)
	delivered, err := models.Delivered(ctx, db, id)
	require.NoError(t, err)
	require.Equal(t, int64(outputs), delivered)
	var charged int64
	require.NoError(t, db.WithContext(ctx).Model(&models.LedgerEntry{}).
		Where("job_id = ? AND kind = ?", id, models.LedgerCharge).
		Select("COALESCE(SUM(-amount), 0)").Scan(&charged).Error)
	require.Equal(t, outputs*row.PricePerOutput, charged, "each delivered output charged once")
	require.Equal(t, charged, row.ChargedCredits)
	var released int64
	require.NoError(t, db.WithContext(ctx).Model(&models.LedgerEntry{}).
		Where("job_id = ? AND kind = ?", id, models.LedgerRelease).
		Select("COALESCE(SUM(amount), 0)").Scan(&released).Error)
	require.Equal(t, row.HeldCredits, released, "the hold released once")
}
