package main

import (
	"io"
	"mime"
	"net/url"
	"os"
	"path"
	"strings"

	"golang.org/x/term"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// runReport is the end of a run as --json prints it.
type runReport struct {
	JobID      string        `json:"job_id"`
	Outcome    string        `json:"outcome"`
	Charged    *int64        `json:"credits_charged"`
	CreditType string        `json:"credit_type"`
	Files      []string      `json:"files"`
	Error      *client.Error `json:"error,omitempty"`
}

// barWriter is where the progress bar draws: standard error when it is a
// terminal, nowhere when it is a file or a pipe (a log of redraws helps
// no one).
func (r *userRun) barWriter() io.Writer {
	if f, ok := r.stderr.(*os.File); r.terminal || ok && term.IsTerminal(int(f.Fd())) {
		return r.stderr
	}
	return io.Discard
}

// fileExt is an output's extension: its URL's, else its media type's.
func fileExt(f wire.File) string {
	if u, err := url.Parse(f.URL); err == nil {
		if ext := path.Ext(u.Path); ext != "" && !strings.ContainsAny(ext, "/\\") {
			return ext
		}
	}
	if ext, ok := usualExt[f.MediaType]; ok {
		return ext
	}
	if exts, _ := mime.ExtensionsByType(f.MediaType); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// usualExt is the extension people expect of common media types, where
// mime's first (sorted) extension is an odd one (".jfif" for JPEG).
var usualExt = map[string]string{
	"image/jpeg": ".jpg", "image/png": ".png", "image/tiff": ".tif", "image/svg+xml": ".svg",
	"application/pdf": ".pdf", "application/json": ".json", "text/plain": ".txt", "text/csv": ".csv",
}
