package engines

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/taskplatform/taskplatform/outbound"
)

// files reads the files an engine answers, as a data URI or a URL: a URL
// on the engine's own origin or its upload store's through a client that
// trusts them as configured, any other through the SSRF-safe fetch client,
// both at most maxBytes.
type files struct {
	origin   *url.URL
	store    *url.URL // the upload store's, nil for none
	own      *http.Client
	fetch    *http.Client
	maxBytes int64
}

// read is the bytes of an output reference.
func (f files) read(ctx context.Context, ref string) ([]byte, error) {
	if strings.HasPrefix(ref, "data:") {
		return f.dataURI(ref)
	}
	u, err := url.Parse(ref)
	if err != nil || u.Host == "" { // a path on the engine's disk: it has no upload store (upload_url)
		return nil, fail(Failed, "output %.60q is neither a data URI nor a URL", ref)
	}
	client := f.fetch
	switch {
	case u.Scheme == f.origin.Scheme && u.Host == f.origin.Host:
		client = f.own
	case f.store != nil && u.Scheme == f.store.Scheme && u.Host == f.store.Host:
		client = f.storeClient()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fail(Failed, "output URL: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, outbound.ErrNotHTTPS) || errors.Is(err, outbound.ErrNotPublic) ||
			errors.Is(err, outbound.ErrInvalidURL) || errors.Is(err, outbound.ErrTooManyRedirects) ||
			errors.Is(err, ErrRedirectOffEngine) {
			return nil, fail(Failed, "output URL %s refused by the address rules: %w", u.Redacted(), err)
		}
		return nil, fail(Unavailable, "fetch output %s: %w", u.Redacted(), err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fail(Unavailable, "fetch output %s: status %d", u.Redacted(), resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	switch {
	case errors.Is(err, outbound.ErrTooLarge) || int64(len(data)) > f.maxBytes:
		return nil, fail(Failed, "output %s is over %d bytes", u.Redacted(), f.maxBytes)
	case err != nil:
		return nil, fail(Unavailable, "read output %s: %w", u.Redacted(), err)
	}
	return data, nil
}

// storeClient reads the upload store: trusted like the engine, and like it
// followed only within its own origin.
func (f files) storeClient() *http.Client {
	cl := *f.own
	origin := f.store
	cl.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			return fmt.Errorf("%w: to %s", ErrRedirectOffEngine, req.URL.Redacted())
		}
		if len(via) >= maxEngineRedirects {
			return fmt.Errorf("engines: stopped after %d redirects", maxEngineRedirects)
		}
		return nil
	}
	return &cl
}

// dataURI decodes data:[<type>][;base64],<data>.
func (f files) dataURI(ref string) ([]byte, error) {
	head, body, ok := strings.Cut(strings.TrimPrefix(ref, "data:"), ",")
	if !ok {
		return nil, fail(Failed, "output data URI has no comma")
	}
	if int64(len(body)) > f.maxBytes*4/3+4 {
		return nil, fail(Failed, "output data URI is over %d bytes", f.maxBytes)
	}
	var data []byte
	var err error
	if strings.HasSuffix(head, ";base64") {
		data, err = base64.StdEncoding.DecodeString(body)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(body)
		}
	} else {
		var s string
		s, err = url.PathUnescape(body)
		data = []byte(s)
	}
	if err != nil {
		return nil, fail(Failed, "output data URI does not decode: %w", err)
	}
	if int64(len(data)) > f.maxBytes {
		return nil, fail(Failed, "output is over %d bytes", f.maxBytes)
	}
	return data, nil
}

// errNoFile is an output that names no file.
var errNoFile = errors.New("the prediction's output names no file")

// outputFiles are the file references of a Cog-style output: a string, or
// the strings of a list.
func outputFiles(output any) ([]string, error) {
	var refs []string
	switch v := output.(type) {
	case string:
		if v != "" {
			refs = append(refs, v)
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok && s != "" {
				refs = append(refs, s)
			}
		}
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%w (%T)", errNoFile, output)
	}
	return refs, nil
}
