package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/contract"
)

// FileRecord is an uploaded or registered file: its handle (file:…), which
// any task input accepts.
type FileRecord struct {
	File       string  `json:"file"`
	URL        string  `json:"url"`
	MediaType  *string `json:"media_type"`
	Size       *int64  `json:"size"`
	ExternalID *string `json:"external_id"`
	// Name is an upload's file name as it was sent (its last path
	// element); nil for a registered URL.
	Name      *string   `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	Deletable bool      `json:"deletable"`
}

// Upload sends a file's bytes (at most limits.upload.max_bytes of
// /v1/meta; the type is read from the bytes) under the file name of name's
// last element, which the file keeps; externalID is your own id of it, or
// empty. A retried upload after a network error may leave a second
// file: uploads are not idempotent.
func (c *Client) Upload(ctx context.Context, name string, r io.Reader, externalID string) (*FileRecord, error) {
	data, err := io.ReadAll(io.LimitReader(r, contract.DefaultLimits().Upload.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filepath.Base(name))
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write(data); err != nil {
		return nil, err
	}
	if externalID != "" {
		if err := mw.WriteField("external_id", externalID); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	return c.postFile(ctx, body.Bytes(), mw.FormDataContentType())
}

// RegisterURL registers a public https URL as a file without fetching it;
// registering the same URL again answers the same file.
func (c *Client) RegisterURL(ctx context.Context, url, externalID string) (*FileRecord, error) {
	in := map[string]string{"url": url}
	if externalID != "" {
		in["external_id"] = externalID
	}
	body, _ := json.Marshal(in)
	return c.postFile(ctx, body, "application/json")
}

func (c *Client) postFile(ctx context.Context, body []byte, contentType string) (*FileRecord, error) {
	a, err := c.do(ctx, request{method: http.MethodPost, path: "/v1/files", body: body, contentType: contentType})
	if err != nil {
		return nil, err
	}
	var f FileRecord
	return &f, decode(a, &f)
}

// Download writes the bytes at a file's URL (a result file's url) to w,
// with the client's retries while nothing has been written. File URLs need
// no key; the key is sent only to the API's own origin.
func (c *Client) Download(ctx context.Context, fileURL string, w io.Writer) (int64, error) {
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fileURL, nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("User-Agent", c.userAgent)
		if c.key != "" && strings.HasPrefix(fileURL, c.baseURL+"/") {
			req.Header.Set("Authorization", "Key "+c.key)
		}
		res, err := c.http.Do(req)
		var wait time.Duration
		switch {
		case err == nil && res.StatusCode == http.StatusOK:
			n, err := io.Copy(w, res.Body)
			_ = res.Body.Close()
			if err != nil {
				return n, fmt.Errorf("download %s: %w", fileURL, err)
			}
			return n, nil
		case err == nil:
			apiErr, retry := c.errorOf(res)
			if !retry || attempt+1 >= c.maxAttempts {
				return 0, apiErr
			}
			wait = apiErr.RetryAfter
		case ctx.Err() != nil:
			return 0, ctx.Err()
		case unreachable(err) != nil:
			return 0, unreachable(err)
		case attempt+1 >= c.maxAttempts:
			return 0, err
		}
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return 0, err
		}
	}
}
