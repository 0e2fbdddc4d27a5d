package records

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// SeedCurated writes the curated library — moodboards with their looks,
// collage and analysis, fabrics with their swatch and swatch card — into
// db and bucket. Records already there are kept (one query finds them), so
// running it again (each `taskplatform migrate` and `dev`) only adds what
// is missing. The entries are drawn on every CPU at once: drawing them is
// the seconds of a first start.
func SeedCurated(ctx context.Context, db *gorm.DB, bucket *blob.Bucket) error {
	return new(Library).Seed(ctx, db, bucket)
}

// Library is the curated library's files, each entry's drawn when first
// written and kept: one process that writes the library into many
// databases (the test stacks, each on a schema of its own) draws it once.
// The zero Library is ready to use and safe for concurrent use; a process
// that writes the library once uses SeedCurated, which keeps nothing.
type Library struct {
	mu      sync.Mutex
	entries map[string]func() ([]drawnFile, error)
}

// drawnFile is one encoded file of a curated entry.
type drawnFile struct {
	id, ext, mediaType string
	data               []byte
	w, h               int
}

// files answers the files of entry id, drawing them on first use.
func (l *Library) files(id string, draw func() ([]drawnFile, error)) ([]drawnFile, error) {
	l.mu.Lock()
	if l.entries == nil {
		l.entries = map[string]func() ([]drawnFile, error){}
	}
	get, ok := l.entries[id]
	if !ok {
		get = sync.OnceValues(draw)
		l.entries[id] = get
	}
	l.mu.Unlock()
	return get()
}

// Seed writes the curated library into db and bucket as SeedCurated does,
// drawing only the entries this Library has not drawn before.
func (l *Library) Seed(ctx context.Context, db *gorm.DB, bucket *blob.Bucket) error {
	env := tasks.Env{UserID: models.CuratedUser, DB: db, Blob: bucket}
	var have []string
	if err := db.WithContext(ctx).Model(&models.Record{}).
		Where("user_id = ? AND kind IN ?", models.CuratedUser, []string{KindMoodboard, KindFabric}).
		Pluck("id", &have).Error; err != nil {
		return fmt.Errorf("read the curated library: %w", err)
	}
	known := map[string]bool{}
	for _, id := range have {
		known[id] = true
	}
	// Older library entries first, so listings (newest first) show them in
	// the order above: each entry's time is fixed by its place.
	at := time.Now().UTC().Add(-time.Duration(len(curatedBoards)+len(curatedFabrics)) * time.Second)
	next := func() time.Time { at = at.Add(time.Second); return at }
	var writes []func(context.Context) error
	for i := len(curatedBoards) - 1; i >= 0; i-- {
		b, when := curatedBoards[i], next()
		if !known[b.id] {
			writes = append(writes, func(ctx context.Context) error { return b.write(ctx, env, l, when) })
		}
	}
	for i := len(curatedFabrics) - 1; i >= 0; i-- {
		f, when := curatedFabrics[i], next()
		if !known[f.id] {
			writes = append(writes, func(ctx context.Context) error { return f.write(ctx, env, l, when) })
		}
	}
	return onEveryCPU(ctx, writes)
}

// putFiles stores an entry's drawn files, owned by the record owner names.
func putFiles(ctx context.Context, env tasks.Env, owner string, files []drawnFile) error {
	for _, f := range files {
		if err := putFile(ctx, env, f.id, f.ext, f.mediaType, owner, f.data, f.w, f.h); err != nil {
			return err
		}
	}
	return nil
}

// onEveryCPU runs writes on as many goroutines as there are CPUs and
// answers the first error; the writes not started by then are not run.
func onEveryCPU(ctx context.Context, writes []func(context.Context) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	queue := make(chan func(context.Context) error)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(writes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := range queue {
				if err := w(ctx); err != nil {
					cancel(err)
				}
			}
		}()
	}
send:
	for _, w := range writes {
		select {
		case queue <- w:
		case <-ctx.Done():
			break send
		}
	}
	close(queue)
	wg.Wait()
	return context.Cause(ctx)
}
