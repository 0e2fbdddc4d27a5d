package catalogue_test

import (
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// served is the service's catalogue: every family of tasks/all, as the
// binary serves it.
func served() *catalogue.Catalogue { return catalogue.New(all.Registry()) }
