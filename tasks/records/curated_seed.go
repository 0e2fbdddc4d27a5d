package records

import (
	"context"
	"runtime"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

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
