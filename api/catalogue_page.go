package api

import (
	"encoding/base64"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
)

// maxCataloguePage is the largest page of a catalogue list.
const maxCataloguePage = 100

// paginate answers {items, has_more, next_cursor} over a list in its served
// order. limit is 1 to 100 (default def); the cursor is the opaque key of the
// last item of the previous page, so it stays valid while that item exists.
func paginate[T any](c *gin.Context, all []T, key func(T) string, def int) {
	limit := def
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxCataloguePage {
			middleware.Fail(
				c,
				apierr.New(apierr.InvalidRequest, "limit must be a whole number from 1 to 100.").WithField("limit"),
			)
			return
		}
		limit = n
	}
	start := 0
	if cur := c.Query("cursor"); cur != "" {
		after, err := base64.RawURLEncoding.DecodeString(cur)
		start = -1
		for i, it := range all {
			if err == nil && key(it) == string(after) {
				start = i + 1
			}
		}
		if start < 0 {
			middleware.Fail(
				c,
				apierr.New(apierr.InvalidRequest, "The cursor is not valid or has expired; restart the listing without it.").
					WithField("cursor"),
			)
			return
		}
	}
	end := min(start+limit, len(all))
	items := all[start:end]
	if items == nil {
		items = []T{}
	}
	body := gin.H{"items": items, "has_more": end < len(all)}
	if end < len(all) {
		body["next_cursor"] = base64.RawURLEncoding.EncodeToString([]byte(key(all[end-1])))
	}
	c.JSON(http.StatusOK, body)
}
