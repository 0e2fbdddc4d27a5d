package colourwork

import (
	"context"
	"encoding/json"
	"image/color"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
	"github.com/taskplatform/taskplatform/testenv"
)

// kitRecord writes a brand kit record of the user's with colours and, when
// looks, one kept look; status is its record status.
func kitRecord(t *testing.T, db *gorm.DB, user uint64, id, status string, colours []string, looks bool) string {
	fields := map[string]any{"colours": []any{}, "moodboards": []string{"moodboard:mb_cur_coastal"}, "looks": []any{}}
	var cs []any
	for _, c := range colours {
		cs = append(cs, map[string]any{"hex": c, "name": "x"})
	}
	fields["colours"] = cs
	if looks {
		fields["looks"] = []any{
			map[string]any{"url": "/files/look.jpg", "moodboard": "moodboard:mb_cur_coastal", "index": 0},
		}
	}
	b, err := json.Marshal(fields)
	require.NoError(t, err)
	require.NoError(
		t,
		models.CreateRecord(context.Background(), db, &models.Record{ID: id, Kind: records.KindBrandKit, UserID: user,
			Name: "Kit", Status: status, Fields: string(b)}, time.Now()),
	)
	return "brand_kit:" + id
}

// TestColourwaysFromABrandKit: a kit whose looks are not analysed answers
// brand_kit_look_not_ready at submit, another account's kit
// invalid_request; a ready kit gives count colourways, each the design's
// two colours mapped onto the kit colours it starts at.
func TestColourwaysFromABrandKit(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		owner, err := models.CreateUser(ctx, db, "kit@example.com", "")
		require.NoError(t, err)
		other, err := models.CreateUser(ctx, db, "other@example.com", "")
		require.NoError(t, err)
		colours := []string{"#111111", "#EEEEEE", "#C8102E"}
		ready := kitRecord(t, db, owner.ID, "bk_ready", models.RecordReady, colours, true)
		pending := kitRecord(t, db, owner.ID, "bk_pending", models.RecordCreating, colours, true)
		theirs := kitRecord(t, db, other.ID, "bk_theirs", models.RecordReady, colours, false)

		d := task(t, "colourway.generate")
		admitter := d.Runner.(tasks.Admitter)
		env := tasks.Env{UserID: owner.ID, JobID: "j_kit", DB: db}
		for _, tc := range []struct {
			kit  string
			code apierr.Code
		}{{pending, apierr.BrandKitLookNotReady}, {theirs, apierr.InvalidRequest}} {
			in := taskstest.Input(t, d, map[string]any{"image": "file:design", "palettes": tc.kit})
			e := apierr.As(admitter.Admit(ctx, env, in))
			require.Equal(t, tc.code, e.Code, tc.kit)
			require.Equal(t, "palettes", *e.Field)
		}
		readyIn := taskstest.Input(t, d, map[string]any{"image": "file:design", "palettes": ready})
		require.NoError(t, admitter.Admit(ctx, env, readyIn))

		design := bands(120, 60, []color.NRGBA{{0xF4, 0xF1, 0xEA, 255}, {0x1B, 0x2A, 0x4A, 255}}, []int{1, 1}, false)
		in, err := d.Validate([]byte(`{"image":"file:design","palettes":"` + ready + `","count":3}`))
		require.NoError(t, err)
		sctx := tasks.WithEnv(tasks.WithLoader(ctx, files{"file:design": pngOf(t, design)}), env)
		want := [][2]string{{"#111111", "#EEEEEE"}, {"#EEEEEE", "#C8102E"}, {"#C8102E", "#111111"}}
		for i := range d.Runner.Plan(in).Steps {
			out, err := d.Runner.Step(sctx, in, i)
			require.NoError(t, err)
			require.Equal(t, ready, out.Meta["brand_kit"])
			img := decodePNG(t, out.Data)
			for _, p := range [][2]int{{10, 30}, {110, 30}} {
				got := nrgbaAt(img, p[0], p[1])
				near := min(
					imagetasks.DeltaE(got, tasks.ParseColour(want[i][0])),
					imagetasks.DeltaE(got, tasks.ParseColour(want[i][1])),
				)
				require.Less(t, near, 1.0, "colourway %d at %v: %v is a kit colour", i, p, got)
			}
		}
	})
}
