package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// A cancelled job's record says what it held and was charged, and the
// outputs it delivered (charged) stay readable at /files, paged, while its
// result answers 409 and points there.
func TestCancelledJobSaysItsChargeAndListsItsDeliveredFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	ctx, now := context.Background(), time.Now().UTC()
	_, err := models.Grant(ctx, e.db, e.user.ID, contract.CreditService, 100, nil, "test")
	require.NoError(t, err)
	total := 12
	j := &models.Job{
		ID:             models.NewID("j_"),
		UserID:         e.user.ID,
		APIKeyID:       e.keyID,
		Task:           "pattern.generate",
		Input:          "{}",
		Lifecycle:      contract.LifecycleQueued,
		CreditType:     contract.CreditService,
		HeldCredits:    24,
		PricePerOutput: 2,
		ProgressTotal:  &total,
		ServiceVersion: CurrentVersion,
	}
	_, err = models.Admit(ctx, e.db, j, now, func(*models.AdmitRefusal) []byte { return nil })
	require.NoError(t, err)

	read := func() map[string]any {
		res := e.send("GET", "/v1/jobs/"+j.ID, "", keyed(e.key)...)
		require.Equal(t, http.StatusOK, res.code, "%s", res.body)
		return res.obj(t)["credits"].(map[string]any)
	}
	require.Equal(
		t,
		map[string]any{"credit_type": "service_credits", "held": float64(24), "charged": nil},
		read(),
		"nothing charged while it runs",
	)

	for i := range 3 {
		f := &models.File{
			ID:        models.NewID(""),
			UserID:    e.user.ID,
			JobID:     j.ID,
			Index:     i,
			Task:      j.Task,
			MediaType: "image/png",
			BlobKey:   "k" + strconv.Itoa(i),
		}
		_, err := models.AddOutput(ctx, e.db, f, now)
		require.NoError(t, err)
	}
	cancelled, err := json.Marshal(apierr.New(apierr.Cancelled, ""))
	require.NoError(t, err)
	_, _, err = models.Settle(
		ctx,
		e.db,
		j.ID,
		models.Settlement{Outcome: contract.OutcomeCancelled, Error: cancelled},
		now,
	)
	require.NoError(t, err)
	require.Equal(
		t,
		map[string]any{"credit_type": "service_credits", "held": float64(24), "charged": float64(6)},
		read(),
		"3 delivered × 2, the service's own count",
	)

	result := e.send("GET", "/v1/jobs/"+j.ID+"/result", "", keyed(e.key)...)
	require.Equal(t, http.StatusConflict, result.code)
	require.Equal(t, "cancelled", result.errCode(t))
	require.Contains(t, result.errObj(t)["message"], "/v1/jobs/"+j.ID+"/files")

	var handles []any
	cursor := ""
	for range 3 {
		path := "/v1/jobs/" + j.ID + "/files?limit=2"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		res := e.send("GET", path, "", keyed(e.key)...)
		require.Equal(t, http.StatusOK, res.code, "%s", res.body)
		page := res.obj(t)
		for _, f := range page["items"].([]any) {
			require.Equal(t, j.ID, f.(map[string]any)["job_id"])
			handles = append(handles, f.(map[string]any)["file"])
		}
		if page["has_more"] != true {
			break
		}
		cursor = page["next_cursor"].(string)
	}
	require.Len(t, handles, 3, "every delivered output, in order, across pages")

	other, otherKey, _ := e.account(models.PlanStandard)
	require.NotEqual(t, e.user.ID, other.ID)
	require.Equal(
		t,
		http.StatusNotFound,
		e.send("GET", "/v1/jobs/"+j.ID+"/files", "", keyed(otherKey)...).code,
		"another account's job",
	)
}
