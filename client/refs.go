package client

import (
	"context"
	"net/url"
	"strconv"
)

// RefItem is one reference item of a kind: an upload (file:…), a file a
// job delivered (art:…) or a record (moodboard:…, fabric:…, …).
type RefItem struct {
	File       string  `json:"file"`
	URL        string  `json:"url"`
	Name       *string `json:"name"`
	ExternalID *string `json:"external_id"`
	Kind       *string `json:"kind"`
	Deletable  *bool   `json:"deletable"`
}

// RefPage is one page of GET /v1/refs/{kind}.
type RefPage struct {
	Items      []RefItem `json:"items"`
	HasMore    bool      `json:"has_more"`
	NextCursor string    `json:"next_cursor"`
}

// Refs lists the account's items of one kind, newest first: "file" (uploads
// and registered URLs), "art" (files jobs delivered) or a record kind;
// limit per page (0: the service's default), from cursor (empty: the
// first page).
func (c *Client) Refs(ctx context.Context, kind string, limit int, cursor string) (*RefPage, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	path := "/v1/refs/" + url.PathEscape(kind)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var p RefPage
	return &p, c.getJSON(ctx, path, &p)
}

// FileInfo is what every handle's read (GET /v1/files/{ref}) says of its
// bytes: where to download them and their type (empty while unknown, as
// for a registered URL no job has fetched).
type FileInfo struct {
	File      string  `json:"file"`
	URL       string  `json:"url"`
	MediaType *string `json:"media_type"`
	// JobID is the job that delivered an art: file; empty otherwise.
	JobID string `json:"job_id"`
}

// File reads one handle (file:…, art:…, or a record's) as FileInfo.
func (c *Client) File(ctx context.Context, ref string) (*FileInfo, error) {
	var f FileInfo
	return &f, c.getJSON(ctx, "/v1/files/"+url.PathEscape(ref), &f)
}
