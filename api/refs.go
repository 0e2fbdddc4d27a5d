package api

import (
	"slices"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// maxRefsParam bounds the base and q parameters of GET /v1/refs/{kind}.
const maxRefsParam = 100

// refItem is one reference item of GET /v1/refs/{kind}.
type refItem struct {
	File       string  `json:"file"`
	URL        string  `json:"url"`
	Name       *string `json:"name"`
	ExternalID *string `json:"external_id"`
	Gender     *string `json:"gender"`
	Base       *string `json:"base"`
	Kind       *string `json:"kind"`
	Deletable  *bool   `json:"deletable"`
}

// refsQuery is the checked query of GET /v1/refs/{kind}.
type refsQuery struct {
	kind    string
	limit   int
	after   *models.Position
	q       string
	base    string
	curated bool
}

// parseRefsQuery checks the query against the kind: base is the model
// kind's, q the file and model kinds', curated true the moodboard and
// fabric kinds'; elsewhere they answer field_not_supported.
func parseRefsQuery(c *gin.Context, kind string) (refsQuery, error) {
	rq := refsQuery{kind: kind}
	var err error
	if rq.limit, rq.after, err = listQuery(c, 20, 100); err != nil {
		return rq, err
	}
	if rq.after != nil && kind != kindArt && kind != kindFile && !isRecordKind(kind) {
		return rq, errBadCursor()
	}
	if rq.base = c.Query("base"); rq.base != "" {
		if kind != "model" {
			return rq, apierr.Newf(apierr.FieldNotSupported, "base lists the saved styles of a model; the %s kind has none.", kind).
				WithField("base")
		}
		if bk, _, ok := parseHandle(rq.base); !ok || bk != "model" || utf8.RuneCountInString(rq.base) > maxRefsParam {
			return rq, apierr.Newf(apierr.InvalidRequest, "base is a model handle (model:<id>) of at most %d characters.", maxRefsParam).
				WithField("base")
		}
	}
	if rq.q = c.Query("q"); rq.q != "" {
		if kind != kindFile && kind != "model" {
			return rq, apierr.Newf(apierr.FieldNotSupported, "q filters the file and model kinds only, not %s.", kind).
				WithField("q")
		}
		if !utf8.ValidString(rq.q) || utf8.RuneCountInString(rq.q) > maxRefsParam {
			return rq, apierr.Newf(apierr.InvalidRequest, "q is at most %d characters.", maxRefsParam).WithField("q")
		}
	}
	switch c.Query("curated") {
	case "", "false":
	case "true":
		if kind != "moodboard" && kind != "fabric" {
			return rq, apierr.Newf(apierr.FieldNotSupported, "curated lists the service's moodboards and fabrics, not %s records.", kind).
				WithField("curated")
		}
		rq.curated = true
	default:
		return rq, apierr.New(apierr.InvalidRequest, "curated is true or false.").WithField("curated")
	}
	return rq, nil
}

// refs answers GET /v1/refs/{kind}: the caller's reference items of one
// kind, newest first, cursor-paged. art: lists the files the caller's jobs
// delivered, file: the caller's uploads and registered URLs, moodboard,
// brand_kit, fabric, range_plan and photoshoot the caller's records
// (curated=true: the service's curated moodboards and fabrics); background,
// pose and pose_preset the photoshoots library; model the library's base
// models and the caller's saved styles.
func (h *fileHandlers) refs(c *gin.Context) {
	kind := c.Param("kind")
	if !slices.Contains(RefKinds, kind) {
		fail(
			c,
			apierr.Newf(
				apierr.NotFound,
				"No reference kind %q; the kinds are art, file, background, pose, model, pose_preset, moodboard, brand_kit, fabric, range_plan and photoshoot.",
				kind,
			),
		)
		return
	}
	rq, err := parseRefsQuery(c, kind)
	if err != nil {
		fail(c, err)
		return
	}
	items := make([]refItem, 0, rq.limit)
	var next *models.Position
	if kind == kindArt || kind == kindFile {
		page, err := models.ListFiles(
			c.Request.Context(),
			h.db,
			models.FileQuery{
				UserID:  identityOf(c).user.ID,
				Outputs: kind == kindArt,
				Text:    rq.q,
				After:   rq.after,
				Limit:   rq.limit,
			},
		)
		if err != nil {
			fail(c, err)
			return
		}
		for i := range page.Items {
			items = append(items, h.refItem(kind, &page.Items[i]))
		}
		next = page.Next
	}
	if isRecordKind(kind) {
		if items, next, err = h.recordItems(c, rq); err != nil {
			fail(c, err)
			return
		}
	}
	writePage(c, items, next)
}

// refItem is the reference item of an art: or file: row; its name falls
// back to the kind, and only art: items can be deleted.
func (h *fileHandlers) refItem(kind string, f *models.File) refItem {
	name, deletable := kind, kind == kindArt
	it := refItem{File: f.Handle(), URL: f.URL(h.filesBaseURL), Name: &name, Deletable: &deletable}
	if kind == kindFile {
		it.ExternalID = nonEmpty(f.ExternalID)
	}
	return it
}
