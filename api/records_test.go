package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestRecordsReadListDelete reads, lists and refuses to delete records of
// every state, each answer checked against the served document: a record
// whose job runs reads analysing, one whose job failed reads failed with
// the job's reason, a ready one its analysis with absolute file URLs; a
// record whose job was never admitted is not shown; curated records are
// listed with curated=true and read by every account.
func TestRecordsReadListDelete(t *testing.T) {
	e := newFileEnv(t, testenv.Postgres)
	doc := everyRouteDoc(t, true)
	ctx, now := context.Background(), time.Now().UTC()
	job := func(lifecycle string, outcome *string, fault *apierr.Error) string {
		j := &models.Job{
			ID:         models.NewID("j_"),
			UserID:     e.user.ID,
			Task:       "moodboard.create",
			Input:      "{}",
			Lifecycle:  lifecycle,
			Outcome:    outcome,
			CreditType: contract.CreditService,
			CreatedAt:  now,
		}
		if fault != nil {
			b, _ := json.Marshal(fault)
			j.Error = new(string(b))
		}
		require.NoError(t, e.db.Create(j).Error)
		return j.ID
	}
	failed := contract.OutcomeFailed
	running := job(contract.LifecycleRunning, nil, nil)
	busy := job(contract.LifecycleTerminal, &failed, apierr.New(apierr.CapacityBusy, "No analysis slot in time."))
	done := job(contract.LifecycleTerminal, new(contract.OutcomeSucceeded), nil)
	rec := func(id, kind, jobID, status, fields, analysis string, user uint64, at time.Time) {
		require.NoError(
			t,
			models.CreateRecord(
				ctx,
				e.db,
				&models.Record{ID: id, Kind: kind, UserID: user, JobID: jobID, Name: "Board " + id,
					Status: status, Fields: fields, Analysis: analysis},
				at,
			),
		)
	}
	rec(
		"mb_run",
		records.KindMoodboard,
		running,
		models.RecordAnalysing,
		`{"description":null,"images":["file:a"]}`,
		"",
		e.user.ID,
		now.Add(-3*time.Second),
	)
	rec(
		"mb_busy",
		records.KindMoodboard,
		busy,
		models.RecordAnalysing,
		`{"description":null,"images":["file:a"]}`,
		"",
		e.user.ID,
		now.Add(-2*time.Second),
	)
	rec(
		"mb_done",
		records.KindMoodboard,
		done,
		models.RecordReady,
		`{"description":null,"images":["file:a"]}`,
		`{"palette":[{"hex":"#FF0000","weight":1,"name":"scarlet"}],"looks":[{"index":0,"image":"file:a",`+
			`"url":"/files/mb_done_look0.jpg","dominant_colours":[{"hex":"#FF0000","weight":1,"name":"scarlet"}],`+
			`"lightness":54,"chroma":104,"temperature":"warm","surface":"solid","edge_density":0}]}`,
		e.user.ID,
		now.Add(-time.Second),
	)
	rec("mb_orphan", records.KindMoodboard, "j_never_admitted", models.RecordAnalysing, `{}`, "", e.user.ID, now)
	rec(
		"fb_cur_test",
		records.KindFabric,
		"",
		models.RecordReady,
		`{"facts":{"weight_gsm":110,"composition":[{"fibre":"cotton","percent":100}],"construction":"poplin"},`+
			`"code":"CO100-PO-110","weight_class":"light","weight_oz_yd2":3.2,"swatch":null,`+
			`"swatch_url":"/files/fb_cur_test_swatch.jpg","colour":null,"colour_source":"none"}`,
		"",
		models.CuratedUser,
		now,
	)
	require.NoError(
		t,
		models.PutRecordFile(
			ctx,
			e.db,
			&models.File{ID: "fb_cur_test_card", MediaType: "image/png", BlobKey: "records/x.png", Size: 1},
			now,
		),
	)
	require.NoError(
		t,
		e.db.Model(&models.Record{}).Where("id = ?", "fb_cur_test").Update("preview_file_id", "fb_cur_test_card").Error,
	)

	key := keyed(e.key)
	check := func(method, path, docPath string, status int) map[string]any {
		t.Helper()
		res := serve(e.r, request(method, path, nil, key...))
		require.Equal(t, status, res.code, "%s %s: %s", method, path, res.body)
		openapicheck.CheckAnswer(
			t,
			doc,
			method,
			docPath,
			request(method, path, nil, key...),
			nil,
			res.code,
			res.head,
			res.body,
		)
		return res.obj(t)
	}
	read := func(ref string) map[string]any { return check("GET", "/v1/files/"+ref, "/v1/files/{ref}", 200) }

	v := read("moodboard:mb_run")
	require.Equal(t, "analysing", v["status"])
	require.Equal(t, "moodboard", v["kind"])
	require.Equal(t, running, v["job_id"])
	require.Equal(t, "", v["url"])
	require.Nil(t, v["analysis"])
	require.Equal(t, []any{"file:a"}, v["images"], "the record's own fields sit beside the others")

	v = read("moodboard:mb_busy")
	require.Equal(t, "failed", v["status"])
	require.Contains(t, v["reason"], "capacity_busy")

	v = read("moodboard:mb_done")
	require.Equal(t, "ready", v["status"])
	look := v["analysis"].(map[string]any)["looks"].([]any)[0].(map[string]any)
	require.True(
		t,
		strings.HasPrefix(look["url"].(string), "http"),
		"file addresses are answered absolute: %s",
		look["url"],
	)
	require.True(t, strings.HasSuffix(look["url"].(string), "/files/mb_done_look0.jpg"))

	check("GET", "/v1/files/moodboard:mb_orphan", "/v1/files/{ref}", 404)
	check("GET", "/v1/files/moodboard:mb_nope", "/v1/files/{ref}", 404)
	check("GET", "/v1/files/brand_kit:mb_done", "/v1/files/{ref}", 404)

	page := check("GET", "/v1/refs/moodboard?limit=2", "/v1/refs/{kind}", 200)
	items := page["items"].([]any)
	require.Len(t, items, 2)
	require.Equal(t, "moodboard:mb_done", items[0].(map[string]any)["file"], "newest first")
	require.Equal(t, "Board mb_done", items[0].(map[string]any)["name"])
	require.Equal(t, false, items[0].(map[string]any)["deletable"])
	page = check("GET", "/v1/refs/moodboard?limit=2&cursor="+page["next_cursor"].(string), "/v1/refs/{kind}", 200)
	require.Len(t, page["items"], 1)
	require.Equal(t, false, page["has_more"])

	require.Empty(
		t,
		check("GET", "/v1/refs/fabric", "/v1/refs/{kind}", 200)["items"],
		"the account has no fabric of its own",
	)
	curated := check("GET", "/v1/refs/fabric?curated=true", "/v1/refs/{kind}", 200)["items"].([]any)
	require.Len(t, curated, 1)
	require.True(t, strings.HasSuffix(curated[0].(map[string]any)["url"].(string), "/files/fb_cur_test_card.png"))
	require.Equal(
		t,
		"field_not_supported",
		check("GET", "/v1/refs/brand_kit?curated=true", "/v1/refs/{kind}", 422)["error"].(map[string]any)["code"],
	)

	v = read("fabric:fb_cur_test")
	require.Equal(t, true, v["curated"])
	require.Nil(t, v["job_id"])
	require.Equal(t, "CO100-PO-110", v["code"])
	require.True(t, strings.HasPrefix(v["swatch_url"].(string), "http"))

	for _, ref := range []string{"moodboard:mb_done", "fabric:fb_cur_test", "brand_kit:bk_x", "range_plan:rp_x"} {
		res := check("DELETE", "/v1/files/"+ref, "/v1/files/{ref}", http.StatusUnprocessableEntity)
		require.Equal(t, "file_not_deletable", res["error"].(map[string]any)["code"])
	}
}
