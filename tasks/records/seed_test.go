package records

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob/memblob"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestSeedCurated writes the curated library, drawn on every CPU at once:
// listings show it newest first in library order, with each record's
// preview stored; a library missing a record gets it back on the next run,
// and the rest is kept as it was.
func TestSeedCurated(t *testing.T) {
	// SQLite, as dev writes it; the stack tests seed it on PostgreSQL.
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	bucket := memblob.OpenBucket(nil)
	t.Cleanup(func() { bucket.Close() })
	require.NoError(t, SeedCurated(ctx, db, bucket))
	list := func(kind string) []models.Record {
		page, err := models.ListRecords(ctx, db, models.RecordQuery{UserID: models.CuratedUser, Kind: kind, Limit: 100})
		require.NoError(t, err)
		return page.Items
	}
	previewExt := map[string]string{KindMoodboard: ".jpg", KindFabric: ".png"}
	for kind, handles := range CuratedHandles() {
		recs := list(kind)
		var got []string
		for _, r := range recs {
			got = append(got, r.Handle())
			ok, err := bucket.Exists(ctx, "records/"+r.PreviewFileID+previewExt[kind])
			require.NoError(t, err)
			require.True(t, ok, "the preview of %s is stored", r.Handle())
		}
		require.Equal(t, handles, got, "the %s library, newest first, is in library order", kind)
	}

	before := list(KindFabric)
	gone := KindFabric + ":" + curatedFabrics[3].id
	require.NoError(t, db.Delete(&models.Record{}, "id = ?", curatedFabrics[3].id).Error)
	require.NoError(t, SeedCurated(ctx, db, bucket))
	kept := map[string]models.Record{}
	for _, r := range list(KindFabric) {
		kept[r.Handle()] = r
	}
	require.Len(t, kept, len(before))
	for _, r := range before {
		require.Contains(t, kept, r.Handle())
		if r.Handle() != gone {
			require.Equal(t, r.CreatedAt, kept[r.Handle()].CreatedAt, "%s is kept", r.Handle())
		}
	}
}

// TestLibrarySeedsManyDatabases writes one drawn library into two
// databases: each gets every record and the same stored files.
func TestLibrarySeedsManyDatabases(t *testing.T) {
	ctx := context.Background()
	var lib Library
	var stored [][]byte
	for range 2 {
		db := testenv.DB(t, testenv.SQLite)
		bucket := memblob.OpenBucket(nil)
		t.Cleanup(func() { bucket.Close() })
		require.NoError(t, lib.Seed(ctx, db, bucket))
		for kind, handles := range CuratedHandles() {
			page, err := models.ListRecords(ctx, db,
				models.RecordQuery{UserID: models.CuratedUser, Kind: kind, Limit: 100})
			require.NoError(t, err)
			require.Len(t, page.Items, len(handles), "every %s is written", kind)
		}
		card, err := bucket.ReadAll(ctx, "records/"+curatedFabrics[0].id+"_card.png")
		require.NoError(t, err)
		stored = append(stored, card)
	}
	require.Equal(t, stored[0], stored[1], "the second database gets the files drawn for the first")
}
