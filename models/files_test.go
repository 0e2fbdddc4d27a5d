package models_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestMigration0004AddsFileColumns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		m := db.Migrator()
		require.True(t, m.HasIndex(&models.File{}, "idx_files_user_id"), "files keep their index by user")
		// A database from before 0004: no columns, no index, no version row.
		require.NoError(t, m.DropIndex(&models.File{}, "idx_files_user_source"))
		require.NoError(t, m.DropColumn(&models.File{}, "SourceURL"))
		require.NoError(t, m.DropColumn(&models.File{}, "ExternalID"))
		require.NoError(t, db.Exec("DELETE FROM schema_migrations WHERE id = ?", "0004_files").Error)
		require.ErrorIs(t, models.CheckSchema(ctx, db), models.ErrSchemaOutdated)

		require.NoError(t, models.Migrate(ctx, db))
		require.NoError(t, models.CheckSchema(ctx, db))
		require.True(t, m.HasColumn(&models.File{}, "SourceURL"))
		require.True(t, m.HasColumn(&models.File{}, "ExternalID"))
		require.True(t, m.HasIndex(&models.File{}, "idx_files_user_source"))
	})
}

func TestRegisterURLIsOncePerUserAndURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, other := accountFor(t, db), accountFor(t, db)
		const src = "https://1.1.1.1/shoe.png"

		first, created, err := models.RegisterURL(
			ctx,
			db,
			&models.File{ID: models.NewID(""), UserID: u.ID, SourceURL: src, ExternalID: "sku-1"},
			now,
		)
		require.NoError(t, err)
		require.True(t, created)
		again, created, err := models.RegisterURL(
			ctx,
			db,
			&models.File{ID: models.NewID(""), UserID: u.ID, SourceURL: src, ExternalID: "sku-2"},
			now,
		)
		require.NoError(t, err)
		require.False(t, created)
		require.Equal(t, first.ID, again.ID)
		require.Equal(t, "sku-1", again.ExternalID, "the first registration is kept")

		theirs, created, err := models.RegisterURL(
			ctx,
			db,
			&models.File{ID: models.NewID(""), UserID: other.ID, SourceURL: src},
			now,
		)
		require.NoError(t, err)
		require.True(t, created, "another user's registration is their own")
		require.NotEqual(t, first.ID, theirs.ID)

		// Concurrent registrations of one new URL agree on one row.
		ids := make([]string, 6)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, _, err := models.RegisterURL(
					ctx,
					db,
					&models.File{ID: models.NewID(""), UserID: u.ID, SourceURL: src + "?v=2"},
					now,
				)
				if err == nil {
					ids[i] = f.ID
				}
			}()
		}
		wg.Wait()
		for _, id := range ids {
			require.Equal(t, ids[0], id)
		}
		require.NotEmpty(t, ids[0])
	})
}

func TestCreateUploadReadsBackAsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		f := models.File{
			ID:         models.NewID(""),
			UserID:     u.ID,
			MediaType:  "image/png",
			BlobKey:    "uploads/x",
			Size:       3,
			ExternalID: "sku",
		}
		require.NoError(t, models.CreateUpload(ctx, db, &f, time.Date(2026, 5, 1, 12, 0, 0, 123456789, time.UTC)))
		got, err := models.UserFile(ctx, db, u.ID, f.ID)
		require.NoError(t, err)
		require.True(t, f.CreatedAt.Equal(got.CreatedAt), "%v vs %v", f.CreatedAt, got.CreatedAt)
		require.Equal(t, "sku", got.ExternalID)
		require.Empty(t, got.JobID)

		_, err = models.UserFile(ctx, db, accountFor(t, db).ID, f.ID)
		require.ErrorIs(t, err, models.ErrNotFound, "another user's file is not found")
	})
}

func TestListFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, other := accountFor(t, db), accountFor(t, db)
		add := func(userID uint64, jobID string, idx int, ext, src string, at time.Time) string {
			f := models.File{
				ID:         models.NewID(""),
				UserID:     userID,
				JobID:      jobID,
				Index:      idx,
				MediaType:  "image/png",
				BlobKey:    "k",
				ExternalID: ext,
				SourceURL:  src,
				CreatedAt:  at,
			}
			require.NoError(t, db.Create(&f).Error)
			return f.ID
		}
		var uploads []string // oldest first; two share a creation time
		for i, ext := range []string{"SKU-100", "sku-200", "50%_off", "plain", ""} {
			at := base.Add(time.Duration(i) * time.Second)
			if i == 4 {
				at = base.Add(3 * time.Second)
			}
			src := ""
			if i == 3 {
				src = "https://1.1.1.1/Shoes/Red.PNG"
			}
			uploads = append(uploads, add(u.ID, "", 0, ext, src, at))
		}
		art := add(u.ID, "j_1", 0, "", "", base)
		add(other.ID, "", 0, "SKU-999", "", base)

		// Newest first, two per page, ties broken by id.
		var got []string
		q := models.FileQuery{UserID: u.ID, Limit: 2}
		for pages := 0; ; pages++ {
			require.Less(t, pages, 4)
			page, err := models.ListFiles(ctx, db, q)
			require.NoError(t, err)
			for _, f := range page.Items {
				got = append(got, f.ID)
			}
			if page.Next == nil {
				break
			}
			pos, err := models.ParsePosition(page.Next.String())
			require.NoError(t, err)
			q.After = &pos
		}
		tied := []string{uploads[3], uploads[4]}
		if tied[0] < tied[1] {
			tied[0], tied[1] = tied[1], tied[0]
		}
		require.Equal(t, []string{tied[0], tied[1], uploads[2], uploads[1], uploads[0]}, got)

		outputs, err := models.ListFiles(ctx, db, models.FileQuery{UserID: u.ID, Outputs: true, Limit: 10})
		require.NoError(t, err)
		require.Len(t, outputs.Items, 1)
		require.Equal(t, art, outputs.Items[0].ID)

		for _, tc := range []struct {
			text string
			want []string
		}{
			{"sku", []string{uploads[1], uploads[0]}},
			{"SKU-2", []string{uploads[1]}},
			{"red.png", []string{uploads[3]}},
			{"%", []string{uploads[2]}},
			{"%_", []string{uploads[2]}},
			{"0_", nil}, // "_" is no wildcard: "0%", "00" do not match
			{"nothing", nil},
		} {
			page, err := models.ListFiles(ctx, db, models.FileQuery{UserID: u.ID, Text: tc.text, Limit: 10})
			require.NoError(t, err, tc.text)
			var ids []string
			for _, f := range page.Items {
				ids = append(ids, f.ID)
			}
			require.Equal(t, tc.want, ids, "text %q", tc.text)
		}

		_, err = models.ParsePosition("nope")
		require.ErrorIs(t, err, models.ErrBadPosition)
	})
}
