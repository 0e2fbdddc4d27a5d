package api

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
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

// parseRefsQuery checks the query against the kind: base, q and curated
// are taken by the record kinds whose listing says so (tasks.RecordListing;
// q by the file kind too); elsewhere they answer field_not_supported.
func (h *fileHandlers) parseRefsQuery(c *gin.Context, kind string) (refsQuery, error) {
	rq := refsQuery{kind: kind}
	rk, _ := h.kinds.of(kind)
	var err error
	if rq.limit, rq.after, err = paging.Query(c, 20, 100); err != nil {
		return rq, err
	}
	if rq.base = c.Query("base"); rq.base != "" {
		if !rk.Listing.Base {
			return rq, apierr.Newf(apierr.FieldNotSupported,
				"base lists the records based on another of their kind (%s); the %s kind has none.",
				h.kinds.taking(func(l tasks.RecordListing) bool { return l.Base }), kind).WithField("base")
		}
		if bk, _, ok := h.parseHandle(rq.base); !ok || bk != kind || utf8.RuneCountInString(rq.base) > maxRefsParam {
			return rq, apierr.Newf(apierr.InvalidRequest, "base is a %s handle (%s:<id>) of at most %d characters.",
				kind, kind, maxRefsParam).WithField("base")
		}
	}
	if rq.q = c.Query("q"); rq.q != "" {
		if kind != kindFile && !rk.Listing.Search {
			return rq, apierr.Newf(apierr.FieldNotSupported,
				"q filters the file kind and the record kinds searched by name (%s) only, not %s.",
				h.kinds.taking(func(l tasks.RecordListing) bool { return l.Search }), kind).WithField("q")
		}
		if !utf8.ValidString(rq.q) || utf8.RuneCountInString(rq.q) > maxRefsParam {
			return rq, apierr.Newf(apierr.InvalidRequest, "q is at most %d characters.", maxRefsParam).WithField("q")
		}
	}
	switch c.Query("curated") {
	case "", "false":
	case "true":
		if !rk.Listing.Curated {
			return rq, apierr.Newf(apierr.FieldNotSupported,
				"curated lists the service's curated records of the kinds %s, not %s records.",
				h.kinds.taking(func(l tasks.RecordListing) bool { return l.Curated }), kind).WithField("curated")
		}
		rq.curated = true
	default:
		return rq, apierr.New(apierr.InvalidRequest, "curated is true or false.").WithField("curated")
	}
	return rq, nil
}

// refs answers GET /v1/refs/{kind}: the caller's reference items of one
// kind, newest first, cursor-paged. art: lists the files the caller's jobs
// delivered, file: the caller's uploads and registered URLs, a record kind
// what its listing says (recordItems): the caller's records, the curated
// library's, or both.
func (h *fileHandlers) refs(c *gin.Context) {
	kind := c.Param("kind")
	kinds := h.kinds.refKinds()
	if !slices.Contains(kinds, kind) {
		middleware.Fail(
			c,
			apierr.Newf(apierr.NotFound, "No reference kind %q; the kinds are %s.", kind, strings.Join(kinds, ", ")),
		)
		return
	}
	rq, err := h.parseRefsQuery(c, kind)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]refItem, 0, rq.limit)
	var next *models.Position
	if kind == kindArt || kind == kindFile {
		page, err := models.ListFiles(
			c.Request.Context(),
			h.db,
			models.FileQuery{
				UserID:  middleware.IdentityOf(c).User.ID,
				Outputs: kind == kindArt,
				Text:    rq.q,
				After:   rq.after,
				Limit:   rq.limit,
			},
		)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		for i := range page.Items {
			items = append(items, h.refItem(kind, &page.Items[i]))
		}
		next = page.Next
	}
	if rk, ok := h.kinds.of(kind); ok {
		if items, next, err = h.recordItems(c, rk, rq); err != nil {
			middleware.Fail(c, err)
			return
		}
	}
	paging.Write(c, items, next)
}

// refItem is the reference item of an art: or file: row; its name is an
// upload's file name, else the kind, and only art: items can be deleted.
func (h *fileHandlers) refItem(kind string, f *models.File) refItem {
	name, deletable := kind, kind == kindArt
	if f.Name != "" {
		name = f.Name
	}
	it := refItem{File: f.Handle(), URL: f.URL(h.filesBaseURL), Name: &name, Deletable: &deletable}
	if kind == kindFile {
		it.ExternalID = nonEmpty(f.ExternalID)
	}
	return it
}
