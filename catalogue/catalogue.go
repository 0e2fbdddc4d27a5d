// Package catalogue builds the public catalogue from a task registry: the
// Task objects, the vocabularies with where they are used, the concepts with
// the tasks that make and use them, the recipes, the price list and the
// llms.txt pages. It sits above the task families; the API serves what it
// builds.
package catalogue

import (
	"github.com/taskplatform/taskplatform/tasks"
)

// Catalogue is the public catalogue of one registry.
type Catalogue struct {
	reg *tasks.Registry
}

// New is the catalogue of r.
func New(r *tasks.Registry) *Catalogue { return &Catalogue{reg: r} }

// Empty is the catalogue of no task: the service's own vocabularies only.
func Empty() *Catalogue { return New(tasks.NewRegistry()) }

// Tasks is the registry the catalogue is built from.
func (c *Catalogue) Tasks() *tasks.Registry { return c.reg }

// Recipes are the families' walk-throughs, in the order they were added.
func (c *Catalogue) Recipes() []tasks.Recipe { return c.reg.Recipes() }
