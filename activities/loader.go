package activities

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"gocloud.dev/gcerrors"

	"github.com/taskplatform/taskplatform/contract"
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

// gone is a reference that can never load: the step fails for good.
func gone(format string, args ...any) error {
	return &tasks.StepError{Code: contract.ErrTypeProcessing, Message: fmt.Sprintf(format, args...)}
}

// Load implements tasks.Loader.
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
		return nil, gone("the image %s no longer exists", ref)
	}
	if err != nil {
		return nil, err
	}
	if f.SourceURL != "" {
		return l.fetch(ctx, f.SourceURL)
	}
	data, err := l.a.Blob.ReadAll(ctx, f.BlobKey)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, gone("the image %s no longer exists", ref)
	}
	return data, err
}

// fetch GETs a public https URL within the url_fetch limits; answers and
// addresses that cannot change on a retry fail the step for good.
func (l refLoader) fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, gone("the image URL is not valid")
	}
	res, err := l.a.Fetch.Do(req)
	switch {
	case errors.Is(err, outbound.ErrNotPublic), errors.Is(err, outbound.ErrNotHTTPS), errors.Is(err, outbound.ErrTooManyRedirects):
		return nil, gone("the image URL is not a public https address: %v", err)
	case err != nil:
		return nil, fmt.Errorf("fetch image: %w", err) // retried
	}
	defer res.Body.Close()
	if res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusRequestTimeout {
		return nil, fmt.Errorf("fetch image: the server answered %d", res.StatusCode) // retried
	}
	if res.StatusCode != http.StatusOK {
		return nil, gone("fetching the image answered %d", res.StatusCode)
	}
	data, err := io.ReadAll(res.Body)
	if errors.Is(err, outbound.ErrTooLarge) {
		return nil, gone("the image is larger than limits.url_fetch.max_bytes")
	}
	return data, err
}
