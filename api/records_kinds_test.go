package api

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/openapicheck"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/testenv"
)

// swatchBooks is a family no package ships: one record kind, registered
// here only. The API must read, list and document it from its declaration.
func swatchBooks() tasks.Family {
	return tasks.Family{Name: "swatch_books", Records: []tasks.RecordKind{{
		Name:        "swatch_book",
		Description: "A mill's book of swatches.",
		Fields: map[string]any{
			"pages": map[string]any{"type": "integer", "minimum": 1, "description": "Swatches in the book."},
			"mill":  map[string]any{"type": []any{"string", "null"}, "description": "The mill that made it."},
		},
		Required: []string{"pages", "mill"},
		Listing: tasks.RecordListing{Curated: true, Search: true,
			Item: map[string]string{"kind": "mill"}},
	}}}
}

// TestRegisteredRecordKindIsServed registers a record kind in a test and
// finds it in the served document, typed, and in the answers of
// GET /v1/files/{ref} and GET /v1/refs/{kind}, each checked against that
// document: neither api nor models names the kind.
func TestRegisteredRecordKindIsServed(t *testing.T) {
	t.Parallel()
	reg := tasks.NewRegistry()
	require.NoError(t, reg.Add(swatchBooks()))
	e := newFileEnv(t, testenv.SQLite, func(d *Deps) { d.Catalogue = catalog.New(reg) })

	res := serve(e.r, request(http.MethodGet, "/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, res.code)
	doc := openapicheck.LoadDoc(t, res.body, true)
	book := doc.Components.Schemas["SwatchBookRecord"]
	require.NotNil(t, book, "the kind has its own schema")
	require.True(t, book.Value.Properties["pages"].Value.Type.Is("integer"), "its fields are typed as declared")
	require.Subset(t, book.Value.Required, []string{"file", "status", "pages", "mill"})
	require.Equal(t, []any{"swatch_book"}, book.Value.Properties["kind"].Value.Enum)
	record := doc.Components.Schemas["Record"].Value
	require.Len(t, record.OneOf, 1)
	require.Equal(t, "#/components/schemas/SwatchBookRecord", record.Discriminator.Mapping["swatch_book"].Ref)
	require.Equal(t, []any{"art", "file", "swatch_book"}, doc.Components.Schemas["RefKind"].Value.Enum)

	ctx, now := context.Background(), time.Now().UTC()
	for _, r := range []models.Record{
		{ID: "sb_mine", Kind: "swatch_book", UserID: e.user.ID, Name: "Linen book", Status: models.RecordReady,
			Fields: `{"pages":24,"mill":"Harbour Mills"}`},
		{ID: "sb_cur", Kind: "swatch_book", UserID: models.CuratedUser, Name: "Denim book", Status: models.RecordReady,
			Fields: `{"pages":40,"mill":""}`},
	} {
		require.NoError(t, models.CreateRecord(ctx, e.db, &r, now))
	}
	key := keyed(e.key)
	check := func(path, docPath string, status int) answer {
		t.Helper()
		res := serve(e.r, request(http.MethodGet, path, nil, key...))
		require.Equal(t, status, res.code, "%s: %s", path, res.body)
		openapicheck.CheckAnswer(t, doc, http.MethodGet, docPath, request(http.MethodGet, path, nil, key...), nil,
			res.code, res.head, res.body)
		return res
	}

	v := check("/v1/files/swatch_book:sb_mine", "/v1/files/{ref}", http.StatusOK).obj(t)
	require.Equal(t, "swatch_book", v["kind"])
	require.InDelta(t, 24, v["pages"], 0, "the kind's own fields sit beside the common ones")
	require.Equal(t, "Harbour Mills", v["mill"])
	require.Nil(t, v["analysis"], "a kind without an analysis reads null")
	v = check("/v1/files/swatch_book:sb_cur", "/v1/files/{ref}", http.StatusOK).obj(t)
	require.Equal(t, true, v["curated"], "a curated record is read by every account")
	require.Nil(t, v["mill"], "an empty stored field reads null")

	items := func(path string) []string {
		var out []string
		for _, it := range check(path, "/v1/refs/{kind}", http.StatusOK).obj(t)["items"].([]any) {
			item := it.(map[string]any)
			out = append(out, item["file"].(string))
			if item["file"] == "swatch_book:sb_mine" {
				require.Equal(t, "Harbour Mills", item["kind"], "the listing fills the item fields it names")
			}
		}
		return out
	}
	require.Equal(t, []string{"swatch_book:sb_mine"}, items("/v1/refs/swatch_book"))
	require.Equal(t, []string{"swatch_book:sb_cur"}, items("/v1/refs/swatch_book?curated=true"))
	require.Empty(t, items("/v1/refs/swatch_book?q=denim"), "q searches the account's own")
	require.Equal(t, "field_not_supported",
		check("/v1/refs/swatch_book?base=swatch_book:sb_cur", "/v1/refs/{kind}", 422).errCode(t))

	// The kinds of families this registry does not hold are not served.
	for _, path := range []string{"/v1/refs/moodboard", "/v1/files/moodboard:mb_x"} {
		res := serve(e.r, request(http.MethodGet, path, nil, key...))
		require.Equal(t, http.StatusNotFound, res.code, path)
	}
	require.False(t, slices.Contains(RefKinds(reg), "moodboard"))
}

// TestLibraryRecordsAnswerAsDocumented reads every record of the curated
// and photoshoots libraries, listed by its kind, against the served
// document: each kind's family declares the fields its records hold.
func TestLibraryRecordsAnswerAsDocumented(t *testing.T) {
	t.Parallel()
	e := newRoutesEnv(t)
	key := keyed(e.key)
	check := func(path, docPath string) map[string]any {
		t.Helper()
		res := serve(e.r, request(http.MethodGet, path, nil, key...))
		require.Equal(t, http.StatusOK, res.code, "%s: %s", path, res.body)
		openapicheck.CheckAnswer(t, e.doc, http.MethodGet, docPath, request(http.MethodGet, path, nil, key...), nil,
			res.code, res.head, res.body)
		return res.obj(t)
	}
	read := 0
	for _, rk := range servedTasks().RecordKinds() {
		path := "/v1/refs/" + rk.Name + "?limit=100"
		if rk.Listing.Curated {
			path += "&curated=true"
		}
		for _, it := range check(path, "/v1/refs/{kind}")["items"].([]any) {
			ref := it.(map[string]any)["file"].(string)
			require.Equal(t, rk.Name, check("/v1/files/"+ref, "/v1/files/{ref}")["kind"], ref)
			read++
		}
	}
	require.Greater(t, read, 50, "the libraries hold records of most kinds")
}
