package models

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// ErrBadPosition means a listing position (a decoded cursor) does not parse.
var ErrBadPosition = errors.New("bad listing position")

// Position is where a newest-first listing continues: after the row created
// at At with id ID.
type Position struct {
	At time.Time
	ID string
}

// String writes the position for a cursor.
func (p Position) String() string {
	return strconv.FormatInt(p.At.UnixNano(), 10) + "|" + p.ID
}

// ParsePosition reads a position written by Position.String; other text
// fails with ErrBadPosition.
func ParsePosition(s string) (Position, error) {
	ts, id, ok := strings.Cut(s, "|")
	nanos, err := strconv.ParseInt(ts, 10, 64)
	if !ok || err != nil || id == "" {
		return Position{}, fmt.Errorf("%w: %q", ErrBadPosition, s)
	}
	return Position{At: time.Unix(0, nanos).UTC(), ID: id}, nil
}

// Page is one page of a newest-first listing; Next is set when more follow.
type Page[T any] struct {
	Items []T
	Next  *Position
}

// newestFirst pages q by (created_at, id), newest first, from after (nil:
// the start). idArg turns a position's id into the id column's type; pos
// reads the position of a row.
func newestFirst[T any](
	q *gorm.DB,
	after *Position,
	limit int,
	idArg func(string) (any, error),
	pos func(*T) Position,
) (Page[T], error) {
	if after != nil {
		id, err := idArg(after.ID)
		if err != nil {
			return Page[T]{}, fmt.Errorf("%w: %v", ErrBadPosition, err)
		}
		// created_at <= At bounds the index range; the rest picks the rows after the position.
		q = q.Where("created_at <= ? AND (created_at < ? OR id < ?)", after.At, after.At, id)
	}
	var rows []T
	if err := q.Order("created_at DESC").Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return Page[T]{}, err
	}
	page := Page[T]{Items: rows}
	if len(rows) > limit {
		page.Items = rows[:limit]
		next := pos(&page.Items[limit-1])
		page.Next = &next
	}
	return page, nil
}

// textID is the idArg of tables with text ids.
func textID(s string) (any, error) { return s, nil }

// numericID is the idArg of tables with numeric ids.
func numericID(s string) (any, error) { return strconv.ParseUint(s, 10, 64) }
