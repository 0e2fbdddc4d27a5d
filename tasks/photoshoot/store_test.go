package photoshoot

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob/memblob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/testenv"
)

// admitted makes the job row an admitted job has, so its record is visible.
func admitted(t *testing.T, db *gorm.DB, userID uint64, jobID string) {
	t.Helper()
	require.NoError(
		t,
		db.Create(&models.Job{ID: jobID, UserID: userID, Task: "model.create", Lifecycle: contract.LifecycleQueued,
			CreditType: contract.CreditModel, CreatedAt: time.Now()}).Error,
	)
}

// validated is in as a task of the family reads it: validated against the
// task's schema, defaults applied, decoded into its input type.
func validated[In any](t *testing.T, task string, in map[string]any) *In {
	t.Helper()
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(image.Family())) // the aspect_ratio vocabulary
	require.NoError(t, r.Add(Family()))
	def, err := r.Lookup(task)
	require.NoError(t, err)
	body, err := json.Marshal(in)
	require.NoError(t, err)
	valid, err := def.Validate(body)
	require.NoError(t, err)
	v := tasks.Arg[In](valid)
	require.NotNil(t, v)
	return v
}

// TestLibraryAndStylesOnEveryDatabase seeds the library twice (the second
// adds nothing), lists a base's saved styles by the base named in their
// fields and by name, and refuses what the submit must refuse: a style
// still being created, a pose of another gender, an unknown preset, too
// many shots.
func TestLibraryAndStylesOnEveryDatabase(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		bucket := memblob.OpenBucket(nil)
		t.Cleanup(func() { bucket.Close() })
		require.NoError(t, SeedLibrary(ctx, db, bucket))
		require.NoError(t, SeedLibrary(ctx, db, bucket))
		var n int64
		require.NoError(t, db.Model(&models.Record{}).Where("user_id = ?", models.CuratedUser).Count(&n).Error)
		require.EqualValues(t, len(libraryEntries()), n)
		ok, err := bucket.Exists(ctx, "records/bg_scene_loft_preview.jpg")
		require.NoError(t, err)
		require.True(t, ok)

		u, err := models.CreateUser(ctx, db, "shop@example.com", models.PlanStandard)
		require.NoError(t, err)
		env := tasks.Env{UserID: u.ID, JobID: "j_style1", DB: db, Blob: bucket}
		style := map[string]any{
			"name":        "Ava, deep brunette",
			"base":        "model:md_ava",
			"images":      []any{"file:x"},
			"adjustments": map[string]any{"hips": 0.1},
		}
		require.NoError(t, modelRunner{}.Admit(ctx, env, validated[modelInput](t, "model.create", style)))
		admitted(t, db, u.ID, env.JobID)
		list := func(q models.RecordQuery) []string {
			q.UserID, q.Kind, q.Limit, q.WithCurated = u.ID, kindModel, 50, true
			page, err := models.ListRecords(ctx, db, q)
			require.NoError(t, err)
			var out []string
			for _, r := range page.Items {
				out = append(out, r.Handle())
			}
			return out
		}
		for _, tc := range []struct {
			in    map[string]any
			code  apierr.Code
			field string
		}{
			{map[string]any{"name": "  ", "base": "model:md_ava", "images": []any{"file:x"}}, apierr.NameRequired, "name"},
			{map[string]any{"name": "Of a style", "base": "model:ms_style1", "images": []any{"file:x"}}, apierr.InvalidRequest,
				"base"},
		} {
			in := validated[modelInput](t, "model.create", tc.in)
			e := apierr.As(modelRunner{}.Admit(ctx, tasks.Env{UserID: u.ID, JobID: "j_refused", DB: db}, in))
			require.Equal(t, tc.code, e.Code)
			require.Equal(t, tc.field, *e.Field)
		}
		require.Equal(t, []string{"model:ms_style1"}, list(models.RecordQuery{Base: "model:md_ava"}))
		require.Empty(t, list(models.RecordQuery{Base: "model:md_noah"}))
		require.Equal(t, []string{"model:ms_style1"}, list(models.RecordQuery{Text: "DEEP"}))
		require.Len(t, list(models.RecordQuery{}), len(baseModels)+1)

		shootEnv := tasks.Env{UserID: u.ID, JobID: "j_shoot1", DB: db, Blob: bucket}
		refuse := func(in map[string]any, code apierr.Code, field string) {
			t.Helper()
			err := createRunner{}.Admit(ctx, shootEnv, validated[createInput](t, "photoshoot.create", in))
			e := apierr.As(err)
			require.Equal(t, code, e.Code, "%v", err)
			require.Equal(t, field, *e.Field)
		}
		shootOf := func(extra map[string]any) map[string]any {
			in := map[string]any{"product": "file:x", "background": "#FFFFFF"}
			for k, v := range extra {
				in[k] = v
			}
			return in
		}
		refuse(shootOf(map[string]any{"poses": []any{"pose_preset:pp_nothing"}}), apierr.InvalidRequest, "poses[0]")
		refuse(
			shootOf(map[string]any{"poses": []any{"pose_preset:pp_full_turn"}, "count_per_pose": int64(4),
				"product_back": "file:b", "product_side": "file:s", "product_three_quarter": "file:t"}),
			apierr.TooManyOutputs,
			"count_per_pose",
		)

		// The style's job completes it.
		stepCtx := tasks.WithEnv(ctx, env)
		var fields styleFields
		ava, _ := baseByHandle("model:md_ava")
		in := validated[modelInput](t, "model.create", style)
		require.NoError(t, completeRecord(stepCtx, kindModel, styleOf(in, ava.Body, ava.Body)))
		r, err := models.ReadRecord(ctx, db, u.ID, kindModel, "ms_style1")
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(r.Fields), &fields))
		require.InDelta(t, ava.Body.Hips+0.1, fields.Hips, 1e-9)
		shoot1 := shootOf(map[string]any{"poses": []any{"pose_preset:pp_catalogue"}, "product_back": "file:b",
			"product_side": "file:s"})
		require.NoError(t, createRunner{}.Admit(ctx, shootEnv, validated[createInput](t, "photoshoot.create", shoot1)))
		admitted(t, db, u.ID, shootEnv.JobID)
		shoot, err := models.ReadRecord(ctx, db, u.ID, kindPhotoshoot, "sh_shoot1")
		require.NoError(t, err)
		require.Contains(t, shoot.Fields, `"pose:ps_woman_back"`)
		require.Contains(t, shoot.Fields, `"back":"file:b"`)

		// Another account sees neither the style nor the shoot.
		other, err := models.CreateUser(ctx, db, "other@example.com", models.PlanStandard)
		require.NoError(t, err)
		_, err = models.ReadRecord(ctx, db, other.ID, kindModel, "ms_style1")
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}
