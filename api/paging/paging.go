// Package paging reads and answers the cursor-paged listings of the API and
// the panel's API: limit and cursor in, items, has_more and next_cursor out.
package paging

import (
	"encoding/base64"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// Query reads limit (1 to maxN, default def) and cursor of a
// newest-first listing.
func Query(c *gin.Context, def, maxN int) (int, *models.Position, error) {
	limit, err := Limit(c, def, maxN)
	if err != nil {
		return 0, nil, err
	}
	cur, err := DecodeCursor(c)
	if err != nil || cur == "" {
		return limit, nil, err
	}
	pos, err := models.ParsePosition(cur)
	if err != nil {
		return 0, nil, middleware.ErrBadCursor()
	}
	return limit, &pos, nil
}

// Write answers one page of a listing: items, has_more, and next_cursor
// while more follow.
func Write(c *gin.Context, items any, next *models.Position) {
	out := gin.H{"items": items, "has_more": next != nil}
	if next != nil {
		out["next_cursor"] = EncodeCursor(next.String())
	}
	c.JSON(http.StatusOK, out)
}

// EncodeCursor writes an opaque cursor: base64 of an offset position.
func EncodeCursor(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }

// DecodeCursor reads the cursor query parameter; empty when absent.
func DecodeCursor(c *gin.Context) (string, error) {
	raw := c.Query("cursor")
	if raw == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) == 0 {
		return "", apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").
			WithField("cursor")
	}
	return string(b), nil
}

// Limit reads the limit query parameter: 1 to maxN, default def.
func Limit(c *gin.Context, def, maxN int) (int, error) {
	v := c.Query("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxN {
		return 0, apierr.Newf(apierr.InvalidRequest, "limit must be a whole number from 1 to %d.", maxN).
			WithField("limit")
	}
	return n, nil
}
