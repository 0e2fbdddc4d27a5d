package activities

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"gocloud.dev/gcerrors"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
)

// refLoader loads the image references of one job's input: the owner's
// file: and art: handles from the blob store, registered and direct https
// URLs through the SSRF-safe fetch client, and the example files of the
// catalogue (file:example_…) from the catalogue.
type refLoader struct {
	a      *Activities
	userID uint64
}

// gone is a handle whose file can never load.
func gone(ref string) error {
	return &tasks.FetchError{Reason: ref + " no longer exists"}
}

// Load implements tasks.Loader. A reference that cannot be fetched is a
// *tasks.FetchError saying why; a failure of the service's own stores is
// returned as it is (retried, and reported to the caller as an internal
// failure when the step's attempts run out).
func (l refLoader) Load(ctx context.Context, ref string) ([]byte, error) {
	if f, ok := l.a.registry().ExampleFile(ref); ok {
		return f.Data(), nil // a file the catalogue's examples send, for any caller
	}
	if !tasks.IsHandle(ref) {
		return l.fetch(ctx, ref)
	}
	kind, id, _ := strings.Cut(ref, ":")
	f, err := models.FileByID(ctx, l.a.DB, id)
	if errors.Is(err, models.ErrNotFound) || (err == nil && (f.UserID != l.userID || f.Kind() != kind)) {
		return nil, gone(ref)
	}
	if err != nil {
		return nil, err
	}
	if f.SourceURL != "" {
		return l.fetch(ctx, f.SourceURL)
	}
	data, err := l.a.Blob.ReadAll(ctx, f.BlobKey)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, gone(ref)
	}
	return data, err
}

// fetch GETs a public https URL within the url_fetch limits. A failure is
// a *tasks.FetchError in the caller's words (outbound.Reason), temporary
// when a retry may pass: a refused connection, a timeout, a 5xx, 408 or
// 429 answer.
func (l refLoader) fetch(ctx context.Context, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &tasks.FetchError{Reason: "the URL is not valid", Err: err}
	}
	res, err := l.a.Fetch.Do(req)
	if err != nil {
		return nil, l.fetchError(ctx, req, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		code := res.StatusCode
		return nil, &tasks.FetchError{Reason: fmt.Sprintf("the server answered %d %s", code, http.StatusText(code)),
			Temporary: code >= 500 || code == http.StatusTooManyRequests || code == http.StatusRequestTimeout}
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, l.fetchError(ctx, req, err)
	}
	return data, nil
}

// fetchError is the failure of a fetch: the step's own cancellation as it
// is, anything else said in the caller's words.
func (l refLoader) fetchError(ctx context.Context, req *http.Request, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	reason, temporary := outbound.Reason(err, req.URL)
	return &tasks.FetchError{Reason: reason, Temporary: temporary, Err: err}
}
