package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestRecordsAnAccountReads: an account reads its own records and the
// curated library, never another account's, and never a record whose job
// was not admitted; creating a record again keeps the first; a record
// becomes ready with its fields, and one its ended job did not complete
// reads failed with the job's reason.
func TestRecordsAnAccountReads(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, other := accountFor(t, db), accountFor(t, db)
		job := func(owner *models.User, created time.Time) *models.Job {
			j := &models.Job{
				ID:         models.NewID("j_"),
				UserID:     owner.ID,
				Task:       "moodboard.create",
				Input:      "{}",
				Lifecycle:  contract.LifecycleRunning,
				CreditType: contract.CreditService,
				CreatedAt:  created,
			}
			require.NoError(t, db.Create(j).Error)
			return j
		}
		record := func(owner uint64, jobID, name string, at time.Time) *models.Record {
			r := &models.Record{
				ID:     models.NewID(""),
				Kind:   "moodboard",
				UserID: owner,
				JobID:  jobID,
				Name:   name,
				Status: models.RecordAnalysing,
			}
			require.NoError(t, models.CreateRecord(ctx, db, r, at))
			return r
		}
		first := job(u, day0)
		mine := record(u.ID, first.ID, "autumn", day0)
		second := job(u, day0.Add(time.Minute))
		later := record(u.ID, second.ID, "winter", day0.Add(time.Minute))
		curated := record(models.CuratedUser, "", "library", day0.Add(-time.Hour))
		notAdmitted := record(u.ID, "j_never_admitted", "refused", day0.Add(2*time.Minute))
		theirs := record(other.ID, job(other, day0).ID, "theirs", day0)

		again := &models.Record{
			ID:     models.NewID(""),
			Kind:   "moodboard",
			UserID: u.ID,
			JobID:  first.ID,
			Name:   "retried",
			Status: models.RecordAnalysing,
		}
		require.NoError(t, models.CreateRecord(ctx, db, again, day0.Add(time.Hour)), "a retried submit")
		byJob, err := models.RecordByJob(ctx, db, first.ID)
		require.NoError(t, err)
		require.Equal(t, mine.ID, byJob.ID, "one record per job, the first kept")
		require.Equal(t, "autumn", byJob.Name)
		_, err = models.RecordByJob(ctx, db, "j_nope")
		require.ErrorIs(t, err, models.ErrNotFound)

		for _, tc := range []struct {
			name string
			r    *models.Record
			ok   bool
		}{
			{"its own", mine, true},
			{"a curated one", curated, true},
			{"another account's", theirs, false},
			{"one whose job was not admitted", notAdmitted, false},
		} {
			got, err := models.ReadRecord(ctx, db, u.ID, "moodboard", tc.r.ID)
			if !tc.ok {
				require.ErrorIs(t, err, models.ErrNotFound, tc.name)
				continue
			}
			require.NoError(t, err, tc.name)
			require.Equal(t, tc.r.ID, got.ID, tc.name)
		}
		_, err = models.ReadRecord(ctx, db, u.ID, "fabric", mine.ID)
		require.ErrorIs(t, err, models.ErrNotFound, "a handle of another kind")
		require.Equal(t, "moodboard:"+mine.ID, mine.Handle())
		require.True(t, curated.Curated())
		require.False(t, mine.Curated())

		page, err := models.ListRecords(
			ctx,
			db,
			models.RecordQuery{UserID: u.ID, Kind: "moodboard", Limit: 1},
		)
		require.NoError(t, err)
		require.Len(t, page.Items, 1)
		require.Equal(t, later.ID, page.Items[0].ID, "newest first")
		rest, err := models.ListRecords(
			ctx,
			db,
			models.RecordQuery{UserID: u.ID, Kind: "moodboard", After: page.Next, Limit: 5},
		)
		require.NoError(t, err)
		require.Len(t, rest.Items, 1)
		require.Equal(t, mine.ID, rest.Items[0].ID, "the record of a job never admitted is not listed")
		library, err := models.ListRecords(
			ctx,
			db,
			models.RecordQuery{UserID: models.CuratedUser, Kind: "moodboard", Limit: 5},
		)
		require.NoError(t, err)
		require.Len(t, library.Items, 1)

		require.NoError(
			t,
			models.CompleteRecord(ctx, db, mine.ID, `{"looks":3}`, `{"palette":["#102030"]}`, day0.Add(time.Hour)),
		)
		done, err := models.ReadRecord(ctx, db, u.ID, "moodboard", mine.ID)
		require.NoError(t, err)
		require.Equal(t, models.RecordReady, done.Status)
		require.JSONEq(t, `{"looks":3}`, done.Fields)
		require.JSONEq(t, `{"palette":["#102030"]}`, done.Analysis)

		ended := *second
		ended.Lifecycle = contract.LifecycleTerminal
		failure := `{"code":"processing_failed","message":"No look could be read."}`
		ended.Error = &failure
		for _, tc := range []struct {
			name           string
			r              *models.Record
			job            *models.Job
			status, reason string
		}{
			{"ready", done, &ended, models.RecordReady, ""},
			{"its job still runs", later, second, models.RecordAnalysing, ""},
			{"curated, no job", curated, nil, models.RecordAnalysing, ""},
			{"its job ended first", later, &ended, models.RecordFailed,
				"The job " + second.ID + " ended before the moodboard was complete (processing_failed: No look could be read.)."},
		} {
			status, reason := tc.r.State(tc.job)
			require.Equal(t, tc.status, status, tc.name)
			require.Equal(t, tc.reason, reason, tc.name)
		}
	})
}

// TestRecordPreviews: a curated record shows its own preview file, a job's
// record its job's first output; a record file is written once.
func TestRecordPreviews(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 4, 2)
		_, err = models.Admit(ctx, db, j, day0, nil)
		require.NoError(t, err)
		deliver(t, db, j, 2, day0)

		look := &models.File{
			ID:        "curated_look_1",
			MediaType: "image/jpeg",
			BlobKey:   "curated/look_1",
			Size:      10,
			Data:      "null",
		}
		require.NoError(t, models.PutRecordFile(ctx, db, look, day0))
		second := &models.File{
			ID:        "curated_look_1",
			MediaType: "image/png",
			BlobKey:   "elsewhere",
			Size:      99,
			Data:      "null",
		}
		require.NoError(t, models.PutRecordFile(ctx, db, second, day0.Add(time.Hour)), "a second seeding")
		stored, err := models.FileByID(ctx, db, "curated_look_1")
		require.NoError(t, err)
		require.Equal(t, "curated/look_1", stored.BlobKey, "the first row is kept")
		require.Equal(t, models.CuratedUser, stored.UserID, "no account owns it")

		recs := []models.Record{
			{ID: "r_job", Kind: "moodboard", UserID: u.ID, JobID: j.ID},
			{ID: "r_curated", Kind: "moodboard", UserID: models.CuratedUser, PreviewFileID: look.ID},
			{ID: "r_bare", Kind: "fabric", UserID: models.CuratedUser},
		}
		jobs, previews, err := models.RecordJobs(ctx, db, recs)
		require.NoError(t, err)
		require.Equal(t, []string{j.ID}, keys(jobs))
		require.Equal(t, 0, previews["r_job"].Index, "a job's record shows its first output")
		require.Equal(t, j.ID, previews["r_job"].JobID)
		require.Equal(t, look.ID, previews["r_curated"].ID)
		require.NotContains(t, previews, "r_bare")

		for _, only := range [][]models.Record{recs[:1], recs[1:2], recs[2:]} {
			_, p, err := models.RecordJobs(ctx, db, only)
			require.NoError(t, err)
			require.Len(t, p, map[string]int{"r_job": 1, "r_curated": 1, "r_bare": 0}[only[0].ID])
		}
	})
}

func TestPinVersion(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		require.NoError(t, models.PinVersion(ctx, db, u.ID, "2025-01-01"))
		got, err := models.UserByID(ctx, db, u.ID)
		require.NoError(t, err)
		require.Equal(t, "2025-01-01", got.ServiceVersion)
		require.ErrorIs(t, models.PinVersion(ctx, db, u.ID+1000, "2025-01-01"), models.ErrNotFound)
	})
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
