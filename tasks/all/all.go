// Package all assembles the catalogue: it adds every task family to a
// registry. Adding a family is one line in Families.
package all

import (
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colourwork"
	"github.com/taskplatform/taskplatform/tasks/design"
	"github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/palette"
	"github.com/taskplatform/taskplatform/tasks/pattern"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/production"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/tasks/video"
)

// Families lists every task family. Within a category, tasks are served in
// this order.
func Families() []tasks.Family {
	return []tasks.Family{
		pattern.Family(),
		palette.Family(),
		records.Family(),
		image.Family(),
		video.Family(),
		production.Family(),
		photoshoot.Family(),
		colourwork.Family(),
		design.Family(),
	}
}

// Register adds every family to r.
func Register(r *tasks.Registry) error {
	for _, f := range Families() {
		if err := r.Add(f); err != nil {
			return err
		}
	}
	return nil
}

// Registry is the service's registry, holding every family. It is built
// once, on first use, and panics if a family does not register: a
// programming error every test run catches.
func Registry() *tasks.Registry { return registry() }

var registry = sync.OnceValue(func() *tasks.Registry {
	r := tasks.NewRegistry()
	if err := Register(r); err != nil {
		panic(err)
	}
	return r
})
