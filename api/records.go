package api

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// recordKinds indexes the record kinds the served families register
// (tasks.RecordKind): the API reads, lists and documents each from its
// declaration.
type recordKinds struct {
	ordered []tasks.RecordKind
	byName  map[string]tasks.RecordKind
}

// newRecordKinds indexes the record kinds of reg.
func newRecordKinds(reg *tasks.Registry) recordKinds {
	k := recordKinds{ordered: reg.RecordKinds(), byName: map[string]tasks.RecordKind{}}
	for _, rk := range k.ordered {
		k.byName[rk.Name] = rk
	}
	return k
}

// of is the record kind of a handle kind; ok is false for art, file and
// unknown kinds.
func (k recordKinds) of(kind string) (tasks.RecordKind, bool) {
	rk, ok := k.byName[kind]
	return rk, ok
}

// refKinds are the handle kinds: art, file, then the record kinds.
func (k recordKinds) refKinds() []string {
	out := slices.Clone(tasks.FileKinds)
	for _, rk := range k.ordered {
		out = append(out, rk.Name)
	}
	return out
}

// taking lists the record kinds whose listing takes a filter, joined for a
// message.
func (k recordKinds) taking(filter func(tasks.RecordListing) bool) string {
	var out []string
	for _, rk := range k.ordered {
		if filter(rk.Listing) {
			out = append(out, rk.Name)
		}
	}
	return strings.Join(out, ", ")
}

// RefKinds are the kinds of reference handle (<kind>:<id>) a service
// serving reg reads: art, file and every record kind reg's families
// register.
func RefKinds(reg *tasks.Registry) []string { return newRecordKinds(reg).refKinds() }

// recordView is the read answer of a record handle: what every record
// has, then the record's own fields (its kind's tasks.RecordKind Fields:
// a moodboard's images, a fabric's facts and code) at the same level, and
// the record's analysis where its kind has one.
type recordView struct {
	File string `json:"file"`
	Kind string `json:"kind"`
	// Name is the record's name; nil for a background or a pose, which
	// have none.
	Name *string `json:"name"`
	// URL is the preview image: the record's first delivered file, a
	// curated record's own; empty until there is one.
	URL string `json:"url"`
	// Status is analysing (a kind its job analyses) or creating, then
	// ready or failed.
	Status string  `json:"status"`
	Reason *string `json:"reason"`
	// Curated marks the service's curated library, readable by every account.
	Curated bool `json:"curated"`
	// JobID is the job that makes the record; null for a curated one.
	JobID *string `json:"job_id"`
	// Analysis is the record's analysis once ready (a moodboard's); null
	// otherwise.
	Analysis  json.RawMessage `json:"analysis"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
	Deletable bool            `json:"deletable"`
	// fields are the kind's own fields, written beside the others.
	fields map[string]any
}

// MarshalJSON writes the common fields and the kind's own at one level.
func (v recordView) MarshalJSON() ([]byte, error) {
	type plain recordView
	b, err := json.Marshal(plain(v))
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	for k, x := range v.fields {
		if _, taken := out[k]; !taken {
			out[k] = x
		}
	}
	return json.Marshal(out)
}

// absoluteFiles answers the stored files a record names (kept relative,
// /files/{id}.{ext}) under the files base URL.
func absoluteFiles(v any, base string) any {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			t[k] = absoluteFiles(t[k], base)
		}
	case []any:
		for i := range t {
			t[i] = absoluteFiles(t[i], base)
		}
	case string:
		if strings.HasPrefix(t, "/files/") {
			return base + t
		}
	}
	return v
}

// recordViewOf is the read answer of r with its job and preview file.
func (h *fileHandlers) recordViewOf(r *models.Record, job *models.Job, preview *models.File) recordView {
	status, reason := r.State(job)
	v := recordView{File: r.Handle(), Kind: r.Kind, Name: nonEmpty(r.Name), Status: status, Reason: nonEmpty(reason),
		Curated: r.Curated(), JobID: nonEmpty(r.JobID), Analysis: json.RawMessage("null"), CreatedAt: r.CreatedAt.UTC(),
		UpdatedAt: r.UpdatedAt.UTC()}
	if preview != nil {
		v.URL = preview.URL(h.filesBaseURL)
	}
	if err := json.Unmarshal([]byte(r.Fields), &v.fields); err == nil {
		v.fields, _ = absoluteFiles(v.fields, h.filesBaseURL).(map[string]any)
	}
	for k, x := range v.fields {
		if x == "" {
			v.fields[k] = nil // a field with no value (stored before it was null) is null
		}
	}
	if r.Analysis != "" {
		var a any
		if json.Unmarshal([]byte(r.Analysis), &a) == nil {
			v.Analysis, _ = json.Marshal(absoluteFiles(a, h.filesBaseURL))
		}
	}
	return v
}

// getRecord answers GET /v1/files/{ref} for a record handle: the caller's
// record or a curated one.
func (h *fileHandlers) getRecord(c *gin.Context, kind, id string) {
	ctx := c.Request.Context()
	r, err := models.ReadRecord(ctx, h.db, middleware.IdentityOf(c).User.ID, kind, id)
	if errors.Is(err, models.ErrNotFound) {
		middleware.Fail(c, errNoSuchHandle)
		return
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	jobs, previews, err := models.RecordJobs(ctx, h.db, []models.Record{*r})
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	v := h.recordViewOf(r, jobs[r.JobID], previews[r.ID])
	if rk, _ := h.kinds.of(kind); rk.Outputs != "" && r.JobID != "" {
		// The kind shows its job's outputs as delivered so far (a
		// photoshoot's images).
		files, err := models.JobOutputs(ctx, h.db, r.JobID)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		images := make([]string, len(files))
		for i := range files {
			images[i] = files[i].Handle()
		}
		if v.fields == nil {
			v.fields = map[string]any{}
		}
		v.fields[rk.Outputs] = images
	}
	c.JSON(200, v)
}

// recordItems lists the caller's records of a kind, or the curated
// library's, as reference items, as the kind's listing says: a library
// kind lists the curated records only, a kind listed with the library its
// curated records beside the caller's (base: those based on one record;
// q: by name).
func (h *fileHandlers) recordItems(
	c *gin.Context,
	rk tasks.RecordKind,
	rq refsQuery,
) ([]refItem, *models.Position, error) {
	owner := middleware.IdentityOf(c).User.ID
	if rq.curated || rk.Listing.Library {
		owner = models.CuratedUser
	}
	page, err := models.ListRecords(
		c.Request.Context(),
		h.db,
		models.RecordQuery{UserID: owner, Kind: rk.Name, After: rq.after, Limit: rq.limit,
			WithCurated: rk.Listing.WithLibrary, Text: rq.q, Base: rq.base},
	)
	if err != nil {
		return nil, nil, err
	}
	_, previews, err := models.RecordJobs(c.Request.Context(), h.db, page.Items)
	if err != nil {
		return nil, nil, err
	}
	items := make([]refItem, 0, len(page.Items))
	for i := range page.Items {
		r := &page.Items[i]
		name, deletable := r.Name, false
		it := refItem{File: r.Handle(), Name: &name, Deletable: &deletable}
		if f := previews[r.ID]; f != nil {
			it.URL = f.URL(h.filesBaseURL)
		}
		fillItem(&it, rk.Listing, r)
		items = append(items, it)
	}
	return items, page.Next, nil
}

// fillItem fills the item fields a kind's listing names from the record's
// fields (a background's kind is its setting, a pose's gender its
// figure's); a kind whose records have no name lists them with name null.
func fillItem(it *refItem, l tasks.RecordListing, r *models.Record) {
	if l.Unnamed {
		it.Name = nil
	}
	if len(l.Item) == 0 {
		return
	}
	var f map[string]any
	_ = json.Unmarshal([]byte(r.Fields), &f)
	text := func(field string) *string {
		s, ok := f[field].(string)
		if !ok || s == "" {
			return nil // a field with no value is null
		}
		return &s
	}
	for item, field := range l.Item {
		switch item {
		case "kind":
			it.Kind = text(field)
		case "gender":
			it.Gender = text(field)
		case "base":
			it.Base = text(field)
		}
	}
}
