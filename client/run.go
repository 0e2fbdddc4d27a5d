package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// DefaultBaseURL is the address `make run` serves the API on.
const DefaultBaseURL = "http://127.0.0.1:8080"

// ErrNoAPIKey is NewFromEnv's error when TP_API_KEY is not set.
var ErrNoAPIKey = errors.New("client: TP_API_KEY is not set")

// NewFromEnv is a client configured as the command line is: the key from
// TP_API_KEY and the address from TP_BASE_URL (DefaultBaseURL when unset).
func NewFromEnv(opts ...Option) (*Client, error) {
	key := os.Getenv("TP_API_KEY")
	if key == "" {
		return nil, ErrNoAPIKey
	}
	base := os.Getenv("TP_BASE_URL")
	if base == "" {
		base = DefaultBaseURL
	}
	return New(base, key, opts...), nil
}

// JobError is the error of an ended job that failed or was cancelled, as
// the spec's error object (its Code names why: processing_failed,
// cancelled, start_timeout…); nil for a job that has not ended or that
// succeeded.
func JobError(j *wire.Job) *Error {
	if j == nil || j.Outcome == nil || *j.Outcome == contract.OutcomeSucceeded {
		return nil
	}
	e := &Error{JobID: j.JobID}
	if len(j.Error) > 0 && string(j.Error) != "null" {
		_ = json.Unmarshal(j.Error, e)
	}
	if e.Code == "" {
		e.Code = *j.Outcome
		e.Message = "The job ended " + *j.Outcome + "."
	}
	return e
}

// Total is the outputs a job plans, and false while it does not know yet
// (Progress.Total is null until the job has planned its work).
func Total(p wire.Progress) (int, bool) {
	if p.Total == nil {
		return 0, false
	}
	return *p.Total, true
}

// RunOptions shape Run; the zero value waits as long as ctx allows and
// downloads nothing.
type RunOptions struct {
	SubmitOptions
	// OnEvent, if set, is called with each event while Run waits.
	OnEvent func(Event)
	// DownloadDir, if set, receives every result file, named
	// {job}_{index}.{ext} with mode 0644; their paths are in Run's answer.
	DownloadDir string
}

// Run is a submit, a wait and the result in one call: it submits task with
// input (asking the service to wait up to a minute), follows the job until
// it ends and answers its result, every page. A job that failed or was
// cancelled answers its *Error (JobError) with the job's id. With
// DownloadDir it saves the files and answers their paths.
func (c *Client) Run(ctx context.Context, task string, input any, opts *RunOptions) (*wire.Result, []string, error) {
	if opts == nil {
		opts = &RunOptions{}
	}
	so := opts.SubmitOptions
	if so.Wait == 0 {
		so.Wait = time.Minute
	}
	sub, err := c.Submit(ctx, task, input, &so)
	if err != nil {
		return nil, nil, err
	}
	res := sub.Result
	if res == nil || res.HasMore {
		j, err := c.Wait(ctx, sub.JobID, opts.OnEvent)
		if err != nil {
			return nil, nil, err
		}
		if e := JobError(j); e != nil {
			return nil, nil, e
		}
		if res, err = c.Result(ctx, sub.JobID); err != nil {
			return nil, nil, err
		}
	}
	if opts.DownloadDir == "" {
		return res, nil, nil
	}
	paths, err := c.save(ctx, res, opts.DownloadDir)
	return res, paths, err
}

// save downloads every file of res into dir as {job}_{index}.{ext}.
func (c *Client) save(ctx context.Context, res *wire.Result, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(res.Files))
	for i, f := range res.Files {
		p := filepath.Join(dir, fmt.Sprintf("%s_%d%s", res.JobID, i, extension(f)))
		w, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return paths, err
		}
		_, err = c.Download(ctx, f.URL, w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// extension is a file's extension: its URL's, else its media type's.
func extension(f wire.File) string {
	if u, err := url.Parse(f.URL); err == nil {
		if ext := filepath.Ext(u.Path); ext != "" && !strings.ContainsAny(ext, "/\\") {
			return ext
		}
	}
	if f.MediaType == "image/jpeg" {
		return ".jpg" // the mime table's first is .jfif
	}
	if exts, _ := mime.ExtensionsByType(f.MediaType); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// AllJobs iterates over the account's jobs, newest first, fetching pages of
// pageSize (0: the service's default) as the loop asks for them; a failed
// page read ends the loop with its error.
func (c *Client) AllJobs(ctx context.Context, pageSize int) iter.Seq2[wire.Job, error] {
	return func(yield func(wire.Job, error) bool) {
		cursor := ""
		for {
			page, err := c.Jobs(ctx, pageSize, cursor)
			if err != nil {
				yield(wire.Job{}, err)
				return
			}
			for _, j := range page.Items {
				if !yield(j, nil) {
					return
				}
			}
			if !page.HasMore || page.NextCursor == "" {
				return
			}
			cursor = page.NextCursor
		}
	}
}

// Files iterates over the outputs a job delivered, in the task's order,
// whatever its outcome (JobFiles, read in full before the first file).
func (c *Client) Files(ctx context.Context, jobID string) iter.Seq2[wire.File, error] {
	return func(yield func(wire.File, error) bool) {
		files, err := c.JobFiles(ctx, jobID)
		if err != nil {
			yield(wire.File{}, err)
			return
		}
		for _, f := range files {
			if !yield(f, nil) {
				return
			}
		}
	}
}
