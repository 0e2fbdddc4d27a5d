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

func TestListJobs(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		var want []string // newest first
		for i, key := range []string{"key_a", "key_b", "key_a", "", "key_a"} {
			j := &models.Job{
				ID:         models.NewID("j_"),
				UserID:     u.ID,
				APIKeyID:   key,
				Task:       "pattern.generate",
				Input:      "{}",
				Lifecycle:  contract.LifecycleQueued,
				CreditType: contract.CreditService,
				CreatedAt:  day0.Add(time.Duration(i) * time.Minute),
			}
			require.NoError(t, db.Create(j).Error)
			want = append([]string{j.ID}, want...)
		}
		history(
			t,
			db,
			accountFor(t, db),
			[]reportJob{{task: "pattern.generate", key: "key_a", created: day0.Add(time.Hour), queue: -1, run: -1}},
		)
		// Two jobs created at the same instant page by id.
		twin := &models.Job{
			ID:         "j_0",
			UserID:     u.ID,
			APIKeyID:   "key_b",
			Task:       "pattern.generate",
			Input:      "{}",
			Lifecycle:  contract.LifecycleQueued,
			CreditType: contract.CreditService,
			CreatedAt:  day0.Add(4 * time.Minute),
		}
		require.NoError(t, db.Create(twin).Error)
		want = append(want[:1], append([]string{twin.ID}, want[1:]...)...)

		ids := func(p models.Page[models.Job]) []string {
			var out []string
			for _, j := range p.Items {
				out = append(out, j.ID)
			}
			return out
		}
		var got []string
		var after *models.Position
		for pages := 0; ; pages++ {
			require.Less(t, pages, 4, "the listing ends")
			p, err := models.ListJobs(ctx, db, u.ID, "", after, 2)
			require.NoError(t, err)
			got = append(got, ids(p)...)
			if p.Next == nil {
				break
			}
			pos, err := models.ParsePosition(p.Next.String())
			require.NoError(t, err, "a position survives its cursor text")
			after = &pos
		}
		require.Equal(t, want, got, "every job once, newest first, another account's never")

		onlyA, err := models.ListJobs(ctx, db, u.ID, "key_a", nil, 10)
		require.NoError(t, err)
		require.Equal(t, []string{want[0], want[3], want[5]}, ids(onlyA))
		require.Nil(t, onlyA.Next)
	})
}

func TestJobFilesAndFileByID(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 10, 2)
		_, err = models.Admit(ctx, db, j, day0, nil)
		require.NoError(t, err)
		deliver(t, db, j, 5, day0)
		files, more, err := models.JobFiles(ctx, db, j.ID, -1, 10)
		require.NoError(t, err)
		require.False(t, more)
		require.Len(t, files, 5)
		require.NoError(t, db.Delete(&files[2]).Error)

		indexes := func(after, limit int) ([]int, bool) {
			fs, more, err := models.JobFiles(ctx, db, j.ID, after, limit)
			require.NoError(t, err)
			var out []int
			for _, f := range fs {
				out = append(out, f.Index)
			}
			return out, more
		}
		for _, tc := range []struct {
			after, limit int
			want         []int
			more         bool
		}{
			{after: -1, limit: 2, want: []int{0, 1}, more: true},
			{after: 1, limit: 2, want: []int{3, 4}, more: false},
			{after: 3, limit: 2, want: []int{4}, more: false},
			{after: 4, limit: 2, want: nil, more: false},
		} {
			got, more := indexes(tc.after, tc.limit)
			require.Equal(t, tc.want, got, "after %d: in output order, a deleted file left out", tc.after)
			require.Equal(t, tc.more, more, "after %d", tc.after)
		}

		f, err := models.FileByID(ctx, db, files[0].ID)
		require.NoError(t, err)
		require.Equal(t, j.ID, f.JobID)
		require.Equal(t, "art:"+files[0].ID, f.Handle())
		_, err = models.FileByID(ctx, db, files[2].ID)
		require.ErrorIs(t, err, models.ErrNotFound, "a deleted file is gone")
		_, err = models.FileByID(ctx, db, "nope")
		require.ErrorIs(t, err, models.ErrNotFound)

		row, err := models.JobByIDAny(ctx, db, j.ID)
		require.NoError(t, err)
		require.Equal(t, 5, row.ProgressDone)
		_, err = models.JobByIDAny(ctx, db, "j_nope")
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}
