package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

// listQuery reads limit (1 to maxN, default def) and cursor of a
// newest-first listing.
func listQuery(c *gin.Context, def, maxN int) (int, *models.Position, error) {
	limit, err := pageLimit(c, def, maxN)
	if err != nil {
		return 0, nil, err
	}
	cur, err := decodeCursor(c)
	if err != nil || cur == "" {
		return limit, nil, err
	}
	pos, err := models.ParsePosition(cur)
	if err != nil {
		return 0, nil, middleware.ErrBadCursor()
	}
	return limit, &pos, nil
}

// writePage answers one page of a listing: items, has_more, and next_cursor
// while more follow.
func writePage(c *gin.Context, items any, next *models.Position) {
	out := gin.H{"items": items, "has_more": next != nil}
	if next != nil {
		out["next_cursor"] = encodeCursor(next.String())
	}
	c.JSON(http.StatusOK, out)
}
