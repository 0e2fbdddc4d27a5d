package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// addOutputs inserts files a job of userID delivered, oldest first.
func (e *fileEnv) addOutputs(userID uint64, jobID string, n int, at time.Time) []string {
	e.t.Helper()
	var ids []string
	for i := range n {
		f := models.File{
			ID:        models.NewID(""),
			UserID:    userID,
			JobID:     jobID,
			Index:     i,
			Task:      "pattern.generate",
			MediaType: "image/png",
			BlobKey: fmt.Sprintf(
				"jobs/%s/%d.png",
				jobID,
				i,
			),
			Size:      10,
			CreatedAt: at.Add(time.Duration(i) * time.Second),
		}
		require.NoError(e.t, e.db.Create(&f).Error)
		ids = append(ids, f.ID)
	}
	return ids
}

// listAll follows a refs listing to its end and returns its pages.
func (e *fileEnv) listAll(secret, path string) [][]map[string]any {
	e.t.Helper()
	var pages [][]map[string]any
	next := path
	for range 10 {
		res := e.send(http.MethodGet, next, "", keyed(secret)...)
		require.Equal(e.t, http.StatusOK, res.code, "%s", res.body)
		body := res.obj(e.t)
		var items []map[string]any
		for _, it := range body["items"].([]any) {
			items = append(items, it.(map[string]any))
		}
		pages = append(pages, items)
		cur, ok := body["next_cursor"]
		require.Equal(e.t, body["has_more"], ok, "next_cursor is there exactly while has_more")
		if !ok {
			return pages
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		next = path + sep + "cursor=" + url.QueryEscape(cur.(string))
	}
	e.t.Fatal("the listing does not end")
	return nil
}

func handles(pages [][]map[string]any) []string {
	var out []string
	for _, p := range pages {
		for _, it := range p {
			out = append(out, it["file"].(string))
		}
	}
	return out
}

func TestRefsListsFilesNewestFirstInPages(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			img := string(pngBytes(t))
			var made []string
			for i := range 4 {
				res := e.upload(
					e.key,
					part{"file", []string{"a.png", "a.png", "a.png", "Red Shoe.png"}[i], img},
					part{"external_id", "", []string{"SKU-1", "sku-2", "other", ""}[i]},
				)
				require.Equal(t, http.StatusCreated, res.code, "%s", res.body)
				made = append(made, res.obj(t)["file"].(string))
			}
			reg := e.register(e.key, `{"url":"https://1.1.1.1/Summer/Dress.PNG"}`)
			require.Equal(t, http.StatusCreated, reg.code)
			made = append(made, reg.obj(t)["file"].(string))
			_, otherKey, _ := e.account(models.PlanStandard)
			require.Equal(t, http.StatusCreated, e.upload(otherKey, part{"file", "a.png", img}).code)

			pages := e.listAll(e.key, "/v1/refs/file?limit=2")
			require.Len(t, pages, 3)
			require.Equal(t, []int{2, 2, 1}, []int{len(pages[0]), len(pages[1]), len(pages[2])})
			require.Equal(
				t,
				[]string{made[4], made[3], made[2], made[1], made[0]},
				handles(pages),
				"newest first, only the caller's",
			)
			first := pages[2][0]
			require.Equal(
				t,
				map[string]any{"file": made[0], "url": first["url"], "name": "a.png", "external_id": "SKU-1",
					"gender": nil, "base": nil, "kind": nil, "deletable": false},
				first,
			)
			require.True(t, strings.HasPrefix(first["url"].(string), "https://api.example.test/files/"))
			require.Equal(t, "https://1.1.1.1/Summer/Dress.PNG", pages[0][0]["url"])

			require.Len(t, handles(e.listAll(e.key, "/v1/refs/file")), 5, "default limit 20")
			require.Equal(
				t,
				[]string{made[1], made[0]},
				handles(e.listAll(e.key, "/v1/refs/file?q=SKU")),
				"q matches external_id, any case",
			)
			require.Equal(
				t,
				[]string{made[4]},
				handles(e.listAll(e.key, "/v1/refs/file?q=dress.png")),
				"q matches the source URL",
			)
			require.Equal(
				t,
				[]string{made[3]},
				handles(e.listAll(e.key, "/v1/refs/file?q=red%20SHOE")),
				"q matches the upload's file name",
			)
			require.Empty(t, handles(e.listAll(e.key, "/v1/refs/file?q=%25")), "q is literal text")
			require.Empty(t, handles(e.listAll(e.key, "/v1/refs/art")), "uploads are not art")
		})
	}
}

func TestRefsArtListsJobOutputs(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
			ids := e.addOutputs(e.user.ID, "j_one", 3, at)
			other, _, _ := e.account(models.PlanStandard)
			e.addOutputs(other.ID, "j_two", 2, at)
			require.Equal(t, http.StatusCreated, e.upload(e.key, part{"file", "a.png", string(pngBytes(t))}).code)

			pages := e.listAll(e.key, "/v1/refs/art?limit=2")
			require.Equal(t, []string{"art:" + ids[2], "art:" + ids[1], "art:" + ids[0]}, handles(pages))
			it := pages[0][0]
			require.Equal(t, "art", it["name"], "the name falls back to the kind")
			require.Equal(t, true, it["deletable"])
			require.Nil(t, it["external_id"])
			require.Equal(t, "https://api.example.test/files/"+ids[2]+".png", it["url"])

			del := e.send(http.MethodDelete, "/v1/files/art:"+ids[2], "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, del.code, "%s", del.body)
			require.Equal(
				t,
				[]string{"art:" + ids[1], "art:" + ids[0]},
				handles(e.listAll(e.key, "/v1/refs/art")),
				"a deleted file leaves the listing",
			)
		})
	}
}

func TestRefsQueryRules(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			long := strings.Repeat("x", 101)
			for _, tc := range []struct {
				path   string
				status int
				code   string
				field  any
			}{
				{"/v1/refs/art?q=shoe", 422, "field_not_supported", "q"},
				{"/v1/refs/moodboard?q=shoe", 422, "field_not_supported", "q"},
				{"/v1/refs/file?base=model:abc", 422, "field_not_supported", "base"},
				{"/v1/refs/pose?base=model:abc", 422, "field_not_supported", "base"},
				{"/v1/refs/model?base=" + long, 422, "invalid_request", "base"},
				{"/v1/refs/model?base=art:abc", 422, "invalid_request", "base"},
				{"/v1/refs/file?q=" + long, 422, "invalid_request", "q"},
				{"/v1/refs/file?curated=true", 422, "field_not_supported", "curated"},
				{"/v1/refs/fabric?curated=yes", 422, "invalid_request", "curated"},
				{"/v1/refs/file?limit=0", 422, "invalid_request", "limit"},
				{"/v1/refs/file?limit=101", 422, "invalid_request", "limit"},
				{"/v1/refs/file?limit=ten", 422, "invalid_request", "limit"},
				{"/v1/refs/file?cursor=%21%21", 422, "invalid_request", "cursor"},
				{"/v1/refs/file?cursor=" + paging.EncodeCursor("nope"), 422, "invalid_request", "cursor"},
				{"/v1/refs/pose?cursor=" + paging.EncodeCursor("nope"), 422, "invalid_request", "cursor"},
				{"/v1/refs/files", 404, "not_found", nil},
				{"/v1/refs/Art", 404, "not_found", nil},
			} {
				res := e.send(http.MethodGet, tc.path, "", keyed(e.key)...)
				require.Equal(t, tc.status, res.code, "%s: %s", tc.path, res.body)
				require.Equal(t, tc.code, res.errCode(t), tc.path)
				require.Equal(t, tc.field, res.errObj(t)["field"], tc.path)
			}

			// Kinds this service keeps no records of list nothing.
			for _, path := range []string{"/v1/refs/background", "/v1/refs/pose", "/v1/refs/pose_preset", "/v1/refs/brand_kit",
				"/v1/refs/range_plan",
				"/v1/refs/photoshoot", "/v1/refs/model?q=anna", "/v1/refs/model?base=model:abc", "/v1/refs/moodboard?curated=true",
				"/v1/refs/fabric?curated=false", "/v1/refs/file?q=" + strings.Repeat("x", 100)} {
				res := e.send(http.MethodGet, path, "", keyed(e.key)...)
				require.Equal(t, http.StatusOK, res.code, "%s: %s", path, res.body)
				require.Equal(t, map[string]any{"items": []any{}, "has_more": false}, res.obj(t), path)
			}

			noScope, _ := e.newKey(e.user.ID, []string{models.ScopeJobsRead}, nil)
			res := e.send(http.MethodGet, "/v1/refs/file", "", keyed(noScope)...)
			require.Equal(t, http.StatusForbidden, res.code)
			require.Equal(t, "scope_missing", res.errCode(t))
		})
	}
}
