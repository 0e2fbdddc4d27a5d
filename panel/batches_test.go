package panel

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// TestBatchPagesListABatchAndItsJobs: the batches page lists the account's
// batch with its counts, the batch's page every job by item with a link to
// it and the refused items; another id is not found.
func TestBatchPagesListABatchAndItsJobs(t *testing.T) {
	t.Parallel()
	h, db, u, cookie := signedInPanel(t)
	ctx := context.Background()
	_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 100, nil, "test")
	require.NoError(t, err)
	jobs := []*models.Job{
		{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.generate", Input: "{}",
			CreditType: contract.CreditService, HeldCredits: 4, PricePerOutput: 2},
		{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.stripes", Input: "{}",
			CreditType: contract.CreditService, HeldCredits: 2, PricePerOutput: 2},
	}
	b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchPartial, Jobs: 2,
		Refused: `[{"index":1,"error":{"code":"invalid_request","message":"colors must be a list."}}]`}
	_, err = models.CreateBatch(ctx, db, b, jobs, []int{0, 2}, time.Now().UTC())
	require.NoError(t, err)

	list := do(h, http.MethodGet, "/app/batches", nil, cookie...)
	require.Equal(t, http.StatusOK, list.Code)
	require.Contains(t, list.Body.String(), `href="/app/batches/`+b.ID+`"`)
	require.Contains(t, list.Body.String(), "0 / 3", "outputs: none of the three planned delivered")

	page := do(h, http.MethodGet, "/app/batches/"+b.ID, nil, cookie...)
	require.Equal(t, http.StatusOK, page.Code)
	for _, j := range jobs {
		require.Contains(t, page.Body.String(), `href="/app/jobs/`+j.ID+`"`)
	}
	require.Contains(t, page.Body.String(), "Item 1:")
	require.Contains(t, page.Body.String(), "colors must be a list.")
	require.Contains(t, page.Body.String(), "6 held, 0 charged")

	require.Equal(t, http.StatusNotFound, do(h, http.MethodGet, "/app/batches/b_nothing", nil, cookie...).Code)
}
