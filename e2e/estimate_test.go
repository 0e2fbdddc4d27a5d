package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// TestEstimateRefusesWhatSubmitRefuses sends every task's examples, every
// bound its schema walker breaks, references the account cannot use or
// whose size does not fit, and each task's own refusals at submit (records
// that do not exist or are not ready, per-type limits, the content policy,
// …) to estimate and to submit: both accept, or both answer the same status,
// code and field. Every code a task's Admit answers, invalid_request where
// the task takes references, image_not_public where they may be URLs and
// request_refused where their sides are bounded must come up.
func TestEstimateRefusesWhatSubmitRefuses(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100_000_000, noSteps: true})
	ctx := context.Background()
	require.NoError(t, curated.Seed(ctx, s.db, s.acts.Blob))
	require.NoError(t, photoshoot.SeedLibrary(ctx, s.db, s.acts.Blob))
	_, err := models.Grant(ctx, s.db, s.userID, contract.CreditModel, 100_000_000, nil, "test")
	require.NoError(t, err)
	st := newAdmitState(t, s)
	for _, d := range served().Tasks().Runnable() {
		t.Run(d.Name, func(t *testing.T) {
			seen := map[string]bool{}
			for _, tc := range estimateCases(t, d, st) {
				raw, err := json.Marshal(tc.body)
				require.NoError(t, err)
				est, err := s.tryDo(http.MethodPost, "/v1/tasks/"+d.Name+"/estimate", tc.body)
				require.NoError(t, err)
				sub, err := s.tryDo(http.MethodPost, "/v1/tasks/"+d.Name, tc.body)
				require.NoError(t, err)
				want := answerOf(sub)
				require.Equal(t, want, answerOf(est), "%s: estimate and submit of %s", tc.name, raw)
				seen[strings.Fields(want)[0]] = true
				if tc.code != "" {
					require.Equal(t, string(tc.code), strings.Fields(want)[0], "%s: %s", tc.name, raw)
					if tc.field != "" {
						require.Equal(t, tc.field, strings.Fields(want)[2], "%s: %s", tc.name, raw)
					}
				}
			}
			want := []apierr.Code{}
			if a, ok := d.Runner.(tasks.Admitter); ok {
				want = append(want, a.AdmitErrors()...)
			}
			if len(d.RefFields()) > 0 {
				want = append(want, apierr.InvalidRequest)
			}
			if takesRef(t, d, "https://example.com/look.png") {
				want = append(want, apierr.ImageNotPublic)
			}
			if len(d.RefSides) > 0 && takesRef(t, d, st.tiny) {
				want = append(want, apierr.RequestRefused)
			}
			for _, c := range want {
				require.True(t, seen[string(c)], "no case of %s's refusal %s at submit", d.Name, c)
			}
		})
	}
}

// TestEstimateWritesNothing estimates every example of every task whose
// submit opens a record: the estimates answer 200 and leave no record and
// no job.
func TestEstimateWritesNothing(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true})
	ctx := context.Background()
	require.NoError(t, curated.Seed(ctx, s.db, s.acts.Blob))
	require.NoError(t, photoshoot.SeedLibrary(ctx, s.db, s.acts.Blob))
	count := func() (recs, jobs int64) {
		require.NoError(t, s.db.Model(&models.Record{}).Count(&recs).Error)
		require.NoError(t, s.db.Model(&models.Job{}).Count(&jobs).Error)
		return recs, jobs
	}
	recs, jobs := count()
	estimated := 0
	for _, d := range served().Tasks().Runnable() {
		if _, ok := d.Runner.(tasks.Admitter); !ok {
			continue
		}
		for _, ex := range d.Examples {
			res := s.do(http.MethodPost, "/v1/tasks/"+d.Name+"/estimate", string(ex.Input))
			require.Equal(t, http.StatusOK, res.status, "%s %s: %s", d.Name, ex.Name, res.body)
			estimated++
		}
	}
	require.Greater(t, estimated, 10)
	r, j := count()
	require.Equal(t, recs, r, "no record")
	require.Equal(t, jobs, j, "no job")
}

// answerOf is what an estimate and a submit must agree on: accepted (200
// or 202), or the error's code, status and field.
func answerOf(r response) string {
	if r.status == http.StatusOK || r.status == http.StatusAccepted {
		return "accepted"
	}
	e := r.errorFields()
	return fmt.Sprintf("%v %d %v", e["code"], r.status, e["field"])
}

// estimateCase is one request body; code, when set, is what it must
// answer, naming field when that is set too.
type estimateCase struct {
	name  string
	body  map[string]any
	code  apierr.Code
	field string
}

// admitState holds the account's records and files in the states the
// tasks' own refusals need.
type admitState struct {
	// boardAnalysing is a moodboard of the account still being analysed.
	boardAnalysing string
	// kitCreating is a brand kit whose looks are not analysed yet.
	kitCreating string
	// look is a look of the curated moodboard mb_cur_coastal.
	look string
	// styleCreating is a saved model style still being created.
	styleCreating string
	// artNotShot is an art: file of the account no photoshoot delivered.
	artNotShot string
	// othersUpload is an upload of another account.
	othersUpload string
	// artTall is a delivered file of 1801 × 2600 px.
	artTall string
	// tiny and small are uploads 4 and 20 px a side.
	tiny, small string
}

// newAdmitState makes the records through the API: with no steps running,
// a record's job leaves it analysing or creating.
func newAdmitState(t *testing.T, s *testStack) admitState {
	var st admitState
	board := s.accepted(
		"moodboard.create",
		map[string]any{
			"name":   "Analysing",
			"images": []string{"file:example_mb_breton", "file:example_mb_linen", "file:example_mb_sky"},
		},
	)
	st.boardAnalysing = s.newestRecord("moodboard")
	require.Equal(t, "analysing", s.record(st.boardAnalysing)["status"])
	looks := s.record("moodboard:mb_cur_coastal")["analysis"].(map[string]any)["looks"].([]any)
	st.look = looks[0].(map[string]any)["url"].(string)
	s.accepted(
		"brand_kit.create",
		map[string]any{
			"name":       "Creating",
			"colours":    []string{"#1B2A4A"},
			"moodboards": []string{"moodboard:mb_cur_coastal"},
			"looks":      []string{st.look},
		},
	)
	st.kitCreating = s.newestRecord("brand_kit")
	s.accepted(
		"model.create",
		map[string]any{"name": "Creating", "base": "model:md_ava", "images": []string{"file:example_ps_portrait"}},
	)
	styles := s.do(http.MethodGet, "/v1/refs/model?base=model:md_ava", nil).json(t)["items"].([]any)
	require.Len(t, styles, 1)
	st.styleCreating = styles[0].(map[string]any)["file"].(string)

	art := &models.File{
		ID:        models.NewID(""),
		UserID:    s.userID,
		JobID:     board,
		MediaType: "image/png",
		BlobKey:   "none",
		Size:      1,
	}
	require.NoError(t, s.db.Create(art).Error)
	st.artNotShot = art.Handle()
	tall := &models.File{ // a Zalando shot's size, 1801 × 2600
		ID:        models.NewID(""),
		UserID:    s.userID,
		JobID:     board,
		Index:     1,
		MediaType: "image/jpeg",
		BlobKey:   "none",
		Size:      1,
		Data:      `{"width":1801,"height":2600}`,
	}
	require.NoError(t, s.db.Create(tall).Error)
	st.artTall = tall.Handle()
	st.tiny, st.small = s.uploadSolid(
		color.RGBA{0xC8, 0x10, 0x2E, 0xff},
		4,
	), s.uploadSolid(
		color.RGBA{0x1B, 0x2A, 0x4A, 0xff},
		20,
	)
	saved := s.key
	_, s.key, _ = s.newAccount(0)
	st.othersUpload = s.uploadSolid(color.RGBA{0, 0x80, 0, 0xff}, 64)
	s.key = saved
	return st
}

// estimateCases are the requests of one task: its examples, the schema
// walker's bounds, every reference field sent each reference that cannot
// be used or does not fit, and the task's own refusals at submit.
func estimateCases(t *testing.T, d *tasks.Definition, st admitState) []estimateCase {
	var out []estimateCase
	for _, ex := range d.Examples {
		out = append(out, estimateCase{name: "example " + ex.Name, body: decodeBody(t, ex.Input)})
	}
	for _, v := range taskstest.Violations(t, d) {
		out = append(out, estimateCase{name: "bound " + v.Name, body: v.Body})
	}
	for _, field := range d.RefFields() {
		refs := []struct {
			ref  string
			code apierr.Code
		}{
			{
				st.othersUpload,
				apierr.InvalidRequest,
			}, {"file:nope_1", apierr.InvalidRequest}, {"art:nope_1", apierr.InvalidRequest},
			{"https://no-such-host.invalid/look.png", apierr.ImageNotPublic}, {st.tiny, ""}, {st.small, ""},
		}
		for _, r := range refs {
			body, path := withRef(t, d, field, r.ref)
			if raw, err := json.Marshal(body); err == nil {
				if _, err := d.Validate(raw); err != nil {
					r.code = "" // the field takes no such reference (art: handles only, say)
				}
			}
			out = append(out, estimateCase{name: field + " " + r.ref, body: body, code: r.code, field: path})
		}
	}
	for _, r := range admitRefusals(st)[d.Name] {
		out = append(out, estimateCase{name: r.name, body: with(t, d, r.set), code: r.code})
	}
	return out
}

// takesRef says whether a reference field of d takes ref by its schema
// (a field may take art: handles only, say).
func takesRef(t *testing.T, d *tasks.Definition, ref string) bool {
	for _, field := range d.RefFields() {
		body, _ := withRef(t, d, field, ref)
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		if _, err := d.Validate(raw); err == nil {
			return true
		}
	}
	return false
}

func decodeBody(t *testing.T, raw []byte) map[string]any {
	body := map[string]any{}
	require.NoError(t, json.Unmarshal(raw, &body))
	return body
}

// with is the task's first example with the fields of set changed; a nil
// value removes the field.
func with(t *testing.T, d *tasks.Definition, set map[string]any) map[string]any {
	body := decodeBody(t, d.Examples[0].Input)
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if set[k] == nil {
			delete(body, k)
			continue
		}
		body[k] = set[k]
	}
	return body
}

// withRef is the first example that sends reference field (or the first
// example) with ref in the field: in place of its first item when the
// field is a list. A field of an array's objects (items[].images) is set
// in the array's first object. It answers the body and the path of the
// reference set (images[0], items[0].images[0]), the field a refusal names.
func withRef(t *testing.T, d *tasks.Definition, field, ref string) (map[string]any, string) {
	head, rest, nested := strings.Cut(field, "[].")
	body := decodeBody(t, d.Examples[0].Input)
	for _, ex := range d.Examples {
		if b := decodeBody(t, ex.Input); b[head] != nil {
			body = b
			break
		}
	}
	var schema refSchema
	require.NoError(t, json.Unmarshal(d.InputSchema, &schema))
	if !nested {
		return body, setRef(body, schema.Properties[field], field, ref, "")
	}
	list, _ := body[head].([]any)
	list = slices.Clone(list)
	if len(list) == 0 {
		list = []any{map[string]any{}}
	}
	item := maps.Clone(list[0].(map[string]any))
	list[0], body[head] = item, list
	return body, setRef(item, schema.Properties[head].Items.Properties[rest], rest, ref, head+"[0].")
}

// refSchema is the part of an input schema withRef reads.
type refSchema struct {
	Type       any                   `json:"type"`
	Items      *refSchema            `json:"items"`
	Properties map[string]*refSchema `json:"properties"`
}

// setRef puts ref in field of obj (in place of a list's first item) and
// answers its path after prefix.
func setRef(obj map[string]any, schema *refSchema, field, ref, prefix string) string {
	switch v := obj[field].(type) {
	case []any:
		list := slices.Clone(v)
		list[0] = ref
		obj[field] = list
		return prefix + field + "[0]"
	case nil:
		if schema != nil && schema.Type == "array" {
			obj[field] = []any{ref}
			return prefix + field + "[0]"
		}
	}
	obj[field] = ref
	return prefix + field
}
