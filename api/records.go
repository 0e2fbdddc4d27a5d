package api

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/models"
)

// isRecordKind says whether handles of kind name records (moodboard,
// brand_kit, fabric, range_plan, and the photoshoots family's background,
// pose, pose_preset, model and photoshoot).
func isRecordKind(kind string) bool {
	return slices.Contains(models.RecordKinds, kind) || slices.Contains(models.ShootKinds, kind)
}

// recordView is the read answer of a record handle: what every record
// has, then the record's own fields (a moodboard's images, a brand kit's
// colours, a fabric's facts and code, a range plan's items) at the same
// level, and a moodboard's analysis.
type recordView struct {
	File string `json:"file"`
	Kind string `json:"kind"`
	// Name is the record's name; nil for a background or a pose, which
	// have none.
	Name *string `json:"name"`
	// URL is the preview image: the record's first delivered file, a
	// curated record's own; empty until there is one.
	URL string `json:"url"`
	// Status is analysing (a moodboard) or creating, then ready or failed.
	Status string  `json:"status"`
	Reason *string `json:"reason"`
	// Curated marks the service's curated library, readable by every account.
	Curated bool `json:"curated"`
	// JobID is the job that makes the record; null for a curated one.
	JobID *string `json:"job_id"`
	// Analysis is a moodboard's analysis once ready; null otherwise.
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
	r, err := models.ReadRecord(ctx, h.db, identityOf(c).user.ID, kind, id)
	if errors.Is(err, models.ErrNotFound) {
		fail(c, errNoSuchHandle)
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	jobs, previews, err := models.RecordJobs(ctx, h.db, []models.Record{*r})
	if err != nil {
		fail(c, err)
		return
	}
	v := h.recordViewOf(r, jobs[r.JobID], previews[r.ID])
	if r.Kind == models.RecordPhotoshoot && r.JobID != "" {
		// A photoshoot's images are its job's outputs, as delivered so far.
		files, err := models.JobOutputs(ctx, h.db, r.JobID)
		if err != nil {
			fail(c, err)
			return
		}
		images := make([]string, len(files))
		for i := range files {
			images[i] = files[i].Handle()
		}
		if v.fields == nil {
			v.fields = map[string]any{}
		}
		v.fields["images"] = images
	}
	c.JSON(200, v)
}

// recordItems lists the caller's records of a kind, or the curated
// library's, as reference items: backgrounds, poses and pose presets are
// the library's, models the library's base models and the caller's saved
// styles (base: one base's styles; q: by name).
func (h *fileHandlers) recordItems(c *gin.Context, rq refsQuery) ([]refItem, *models.Position, error) {
	owner := identityOf(c).user.ID
	switch rq.kind {
	case models.RecordBackground, models.RecordPose, models.RecordPosePreset:
		rq.curated = true
	}
	if rq.curated {
		owner = models.CuratedUser
	}
	page, err := models.ListRecords(
		c.Request.Context(),
		h.db,
		models.RecordQuery{UserID: owner, Kind: rq.kind, After: rq.after, Limit: rq.limit,
			WithCurated: rq.kind == models.RecordModel, Text: rq.q, Base: rq.base},
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
		shootItem(&it, r)
		items = append(items, it)
	}
	return items, page.Next, nil
}

// shootItem fills the item fields of the photoshoots family's kinds from
// the record's fields: a background's kind (its setting, studio or scene)
// and a pose's or model's gender, a saved style's base; backgrounds and
// poses have no name.
func shootItem(it *refItem, r *models.Record) {
	if !slices.Contains(models.ShootKinds, r.Kind) {
		return
	}
	var f struct {
		Setting *string `json:"setting"`
		Gender  *string `json:"gender"`
		Base    *string `json:"base"`
	}
	_ = json.Unmarshal([]byte(r.Fields), &f)
	switch r.Kind {
	case models.RecordBackground:
		it.Name, it.Kind = nil, f.Setting
	case models.RecordPose:
		it.Name, it.Gender = nil, f.Gender
	case models.RecordModel:
		it.Gender, it.Base = f.Gender, f.Base
	}
}

// recordFieldSchemas are the kinds' own fields of a record read, each
// present on the kinds that have it.
func recordFieldSchemas() map[string]oa {
	named := object(oa{"hex": str(), "name": describe(str(), "Vocabulary colour_name.")}, "hex", "name")
	return map[string]oa{
		"description": describe(
			nullable(str()),
			"moodboard: what the board is for; background, pose, pose_preset: what it shows.",
		),
		"images": describe(
			arrayOf(str()),
			"moodboard: the images as sent (curated boards: their stored copies); model: the reference photos; photoshoot: its shots, art: handles.",
		),
		"colours":    describe(arrayOf(named), "brand_kit: the kit's colours with their names."),
		"moodboards": describe(arrayOf(str()), "brand_kit: the moodboards it draws on."),
		"looks": describe(arrayOf(object(oa{"url": str(), "moodboard": str(), "index": integer(),
			"analysis": nullable(freeObject("The look's analysis; null until the kit is ready.")),
			"kit_match": nullable(
				arrayOf(
					freeObject("A dominant colour of the look, the nearest kit colour and whether it is on brand."),
				),
			)},
			"url", "moodboard", "index")), "brand_kit: the looks it keeps."),
		"notes": describe(nullable(str()), "brand_kit: usage notes."),
		"facts": describe(
			freeObject("weight_gsm, composition [{fibre, percent}], construction."),
			"fabric: the facts as sent.",
		),
		"code": describe(str(), "fabric: composition, construction and weight, such as CO98EL2-DN-340."),
		"weight_class": describe(
			enum([]string{"light", "medium", "heavy"}),
			"fabric: under 170 g/m², 170 to 270, over 270.",
		),
		"weight_oz_yd2": describe(oa{"type": "number"}, "fabric: the weight in ounces per square yard."),
		"swatch":        describe(nullable(str()), "fabric: the swatch reference as sent."),
		"swatch_url": describe(
			nullable(str()),
			"fabric: the stored swatch image; null until the fabric is ready.",
		),
		"colour":    describe(nullable(named), "fabric: the swatch's main colour, measured; null until ready."),
		"season":    describe(str(), "range_plan: the season."),
		"brand_kit": describe(nullable(str()), "range_plan: the brand kit heading the sheet."),
		"items": describe(
			arrayOf(freeObject("type, name, fabric, colours [{hex, name}], quantity.")),
			"range_plan: the styles.",
		),
		"totals": describe(
			arrayOf(object(oa{"type": str(), "items": integer(), "quantity": integer()}, "type", "items", "quantity")),
			"range_plan: styles and units per garment type.",
		),
		"quantity": describe(integer(), "range_plan: units planned in all."),
		"setting": describe(
			enum([]string{"studio", "scene"}),
			"background: a studio colour or a drawn scene; photoshoot: the backdrop's.",
		),
		"backdrop_colour": describe(str(), "background: the studio colour, or a scene's main tone, #RRGGBB."),
		"horizon": describe(
			nullable(oa{"type": "number"}),
			"background: a scene's horizon as a share of the height from the top; null for studio.",
		),
		"gender": describe(
			enum([]string{"woman", "man", "girl", "boy"}),
			"pose and model: the figure's gender.",
		),
		"angle":  describe(str(), "pose: front, three_quarter, side, back or walking."),
		"angles": describe(arrayOf(str()), "pose_preset: the angles it names, in order."),
		"base": describe(
			nullable(str()),
			"model: the base model of a saved style (model:<id>); null for a base model.",
		),
		"heads":      describe(oa{"type": "number"}, "model: the figure's height in head heights."),
		"shoulders":  describe(oa{"type": "number"}, "model: half the shoulder width, in head heights."),
		"waist":      describe(oa{"type": "number"}, "model: half the waist width, in head heights."),
		"hips":       describe(oa{"type": "number"}, "model: half the hip width, in head heights."),
		"skin":       describe(str(), "model: the skin tone, #RRGGBB."),
		"hair":       describe(str(), "model: the hair colour, #RRGGBB."),
		"hair_style": describe(str(), "model: long, bob, short or ponytail."),
		"adjustments": describe(
			nullable(freeObject("height, shoulders, waist, hips as asked.")),
			"model: a saved style's proportions as asked.",
		),
		"product": describe(str(), "photoshoot: the product image of the front, as sent."),
		"views": describe(
			freeObject("front, back, side, three_quarter: the product image of each view sent."),
			"photoshoot: the product images by view.",
		),
		"marketplace":    describe(str(), "photoshoot: the marketplace preset framing the shots, or none."),
		"background":     describe(str(), "photoshoot: the backdrop as sent."),
		"poses":          describe(arrayOf(str()), "photoshoot: the poses shot, presets resolved."),
		"count_per_pose": describe(integer(), "photoshoot: shots per pose."),
		"width":          describe(integer(), "photoshoot: the shots' width in pixels."),
		"height":         describe(integer(), "photoshoot: the shots' height in pixels."),
	}
}
