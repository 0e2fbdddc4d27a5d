package engines

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"net/http"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// The ways a caller's file reaches a model (EngineConfig.Inputs).
const (
	// InputsDataURI sends the file's bytes in the prediction's input, as a
	// data: URI: nothing for the model server to fetch (the default; fits
	// small files, as a request body carries them whole).
	InputsDataURI = "data_uri"
	// InputsURL sends a URL of the service's copy of the file that the
	// model server fetches: signed, for that one file, expiring with the
	// step (InputURLs).
	InputsURL = "url"
)

// InputURLs publishes the service's copy of a caller's file for a model
// server to fetch: the worker gives one to the steps it runs
// (WithInputURLs).
type InputURLs interface {
	// URL is an address under base (the service as model servers reach it)
	// where data, of type mediaType, can be read until expires, and no
	// other file.
	URL(ctx context.Context, base string, data []byte, mediaType string, expires time.Time) (string, error)
}

type inputURLsKey struct{}

// WithInputURLs gives steps run under ctx the publisher of input files.
func WithInputURLs(ctx context.Context, p InputURLs) context.Context {
	return context.WithValue(ctx, inputURLsKey{}, p)
}

// errNoInputURLs is a programming error: an engine in mode url ran a step
// without a publisher of input files.
var errNoInputURLs = errors.New("engines: no input URL publisher in the step context")

// DefaultInputTTL is how long a model server may fetch an input file when
// the step has no deadline.
const DefaultInputTTL = 10 * time.Minute

// inputFiles is how an engine hands a caller's files on.
type inputFiles struct {
	// mode is InputsDataURI or InputsURL.
	mode string
	// base is the service's address as the model server reaches it (mode
	// url).
	base string
}

// resolve replaces each file reference in a mapped input by what the model
// reads: the file is fetched first through the step's loader, under the
// service's rules (an owner's handle, a public URL through the SSRF-safe
// client), so a URL the caller wrote never reaches the model.
// The pixel size of the first image handed on is noted in source (the
// output's "$output.source_width" and "$output.source_height").
func (f inputFiles) resolve(ctx context.Context, v any, source map[string]any) (any, error) {
	switch x := v.(type) {
	case fileRef:
		data, err := tasks.LoadRef(ctx, tasks.Ref{Field: x.Field, Ref: x.Ref})
		if err != nil {
			return nil, err
		}
		if _, noted := source["source_width"]; !noted {
			if c, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
				source["source_width"], source["source_height"] = c.Width, c.Height
			}
		}
		return f.hand(ctx, data)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := f.resolve(ctx, e, source)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for k, e := range x {
			r, err := f.resolve(ctx, e, source)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}

// hand is the data URI or the signed URL of a file's bytes.
func (f inputFiles) hand(ctx context.Context, data []byte) (string, error) {
	mt := http.DetectContentType(data)
	if f.mode != InputsURL {
		return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data), nil
	}
	p, ok := ctx.Value(inputURLsKey{}).(InputURLs)
	if !ok {
		return "", errNoInputURLs
	}
	expires := time.Now().Add(DefaultInputTTL)
	if d, ok := ctx.Deadline(); ok {
		expires = d
	}
	u, err := p.URL(ctx, f.base, data, mt, expires)
	if err != nil {
		return "", fmt.Errorf("engines: publishing an input file: %w", err)
	}
	return u, nil
}
