package api

import (
	"context"
	"errors"
	"strings"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// storedFiles is the loader of image references a task's Admit reads at
// submit (a packshot's product checked before anything is held): the
// account's stored files and the catalogue's example files, never a URL
// (a fetch has no place in a submit; the step fetches it).
type storedFiles struct {
	d      *Deps
	userID uint64
}

// errNotAtSubmit answers a reference the submit does not read.
var errNotAtSubmit = &tasks.FetchError{Reason: "not read at submit"}

// Load implements tasks.Loader.
func (l storedFiles) Load(ctx context.Context, ref string) ([]byte, error) {
	if f, ok := l.d.taskCatalogue().Tasks().ExampleFile(ref); ok {
		return f.Data(), nil
	}
	if !tasks.IsHandle(ref) || l.d.Blob == nil {
		return nil, errNotAtSubmit
	}
	kind, id, _ := strings.Cut(ref, ":")
	f, err := models.FileByID(ctx, l.d.DB, id)
	if errors.Is(err, models.ErrNotFound) || (err == nil && (f.UserID != l.userID || f.Kind() != kind)) {
		return nil, errNotAtSubmit // checkRef answered it already
	}
	if err != nil {
		return nil, err
	}
	if f.SourceURL != "" {
		return nil, errNotAtSubmit
	}
	return l.d.Blob.ReadAll(ctx, f.BlobKey)
}
