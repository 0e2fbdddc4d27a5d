package panel

import (
	"net/http"
	"strconv"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// batchesPageSize is how many batches the batches page lists at once.
const batchesPageSize = 25

// batchesData is the batches page's: the account's batches, newest first.
type batchesData struct {
	Batches []wire.Batch
	// Next is the offset of the next page; 0 for none.
	Next int
}

// batches lists the account's batches (POST /v1/batches) with their
// progress.
func (p *panel) batches(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	offset = max(offset, 0)
	rows, err := models.BatchesOf(r.Context(), p.d.DB, u.ID, offset, batchesPageSize+1)
	if err != nil {
		return "", "", nil, err
	}
	var data batchesData
	if len(rows) > batchesPageSize {
		rows, data.Next = rows[:batchesPageSize], offset+batchesPageSize
	}
	for i := range rows {
		rec, err := models.BatchRecord(r.Context(), p.d.DB, &rows[i], p.d.BaseURL)
		if err != nil {
			return "", "", nil, err
		}
		rec.Jobs = nil // the list shows counts; the batch's page lists its jobs
		data.Batches = append(data.Batches, rec)
	}
	return "batches", "Batches", data, nil
}

// batch is one batch's page: its counts, outputs, credits, refused items
// and every job.
func (p *panel) batch(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	b, err := models.BatchByID(r.Context(), p.d.DB, u.ID, r.PathValue("id"))
	if err != nil {
		return "", "", nil, err
	}
	rec, err := models.BatchRecord(r.Context(), p.d.DB, b, p.d.BaseURL)
	if err != nil {
		return "", "", nil, err
	}
	return "batch", "Batch " + b.ID, rec, nil
}
