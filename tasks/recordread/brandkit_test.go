package recordread_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestReadBrandKit reads a kit with its looks under the files base URL,
// answers brand_kit_look_not_ready while its looks are not analysed, and
// refuses a kit the account does not own, naming the field.
func TestReadBrandKit(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, "kit@example.com", models.PlanStandard)
	require.NoError(t, err)
	other, err := models.CreateUser(ctx, db, "other@example.com", models.PlanStandard)
	require.NoError(t, err)
	fields := `{"colours":[{"hex":"#1B2A4A","name":"navy"}],"moodboards":["moodboard:mb_a"],` +
		`"looks":[{"url":"/files/mb_a_look0.jpg","moodboard":"moodboard:mb_a","index":0,"analysis":null,` +
		`"kit_match":null}],"notes":"Navy leads."}`
	for _, r := range []models.Record{
		{ID: "bk_ready", Kind: "brand_kit", UserID: u.ID, Name: "Harbour", Status: models.RecordReady, Fields: fields},
		{ID: "bk_open", Kind: "brand_kit", UserID: u.ID, Name: "Open", Status: models.RecordCreating, Fields: fields},
		{ID: "bk_theirs", Kind: "brand_kit", UserID: other.ID, Name: "Theirs", Status: models.RecordReady,
			Fields: fields},
	} {
		require.NoError(t, models.CreateRecord(ctx, db, &r, time.Now()))
	}
	env := tasks.Env{UserID: u.ID, DB: db, FilesBaseURL: "https://files.example.test"}

	kit, err := recordread.ReadBrandKit(ctx, env, "palette", "brand_kit:bk_ready")
	require.NoError(t, err)
	require.Equal(t, "Harbour", kit.Name)
	require.Equal(t, []recordread.KitColour{{Hex: "#1B2A4A", Name: "navy"}}, kit.Colours)
	require.Equal(t, "https://files.example.test/files/mb_a_look0.jpg", kit.Looks[0].URL)
	require.Equal(t, "Navy leads.", kit.Notes)
	require.NoError(t, kit.LooksReady("palette"))

	open, err := recordread.ReadBrandKit(ctx, env, "palette", "brand_kit:bk_open")
	require.NoError(t, err)
	var ae *apierr.Error
	require.True(t, errors.As(open.LooksReady("palette"), &ae))
	require.Equal(t, apierr.BrandKitLookNotReady, ae.Code)

	for _, ref := range []string{"brand_kit:bk_theirs", "moodboard:bk_ready"} {
		_, err = recordread.ReadBrandKit(ctx, env, "palette", ref)
		require.True(t, errors.As(err, &ae), ref)
		require.Equal(t, apierr.InvalidRequest, ae.Code, ref)
		require.Equal(t, "palette", *ae.Field, ref)
	}
	_, err = recordread.ReadBrandKit(ctx, tasks.Env{}, "palette", "brand_kit:bk_ready")
	require.Error(t, err, "without a database (a catalogue example) no kit is read")
}
