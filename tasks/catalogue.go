package tasks

import (
	"sync"

	"github.com/taskplatform/taskplatform/apierr"
)

// builders lists the catalogue in its served order: one function per task
// file.
var builders = []func() *Definition{
	patternGenerate,
	paletteGenerate,
	patternRepeat,
	patternStripes,
	patternLegacy,
}

var (
	catOnce   sync.Once
	catList   []*Definition
	catByName map[string]*Definition
)

func load() {
	catOnce.Do(func() {
		catByName = make(map[string]*Definition, len(builders))
		for _, b := range builders {
			d := b()
			if _, dup := catByName[d.Name]; dup {
				panic("tasks: duplicate task " + d.Name)
			}
			catList = append(catList, d)
			catByName[d.Name] = d
		}
	})
}

// Lookup returns the task of a name: task_not_found (404) when no task has
// it, task_removed (410) when the task was removed.
func Lookup(name string) (*Definition, error) {
	load()
	d, ok := catByName[name]
	if !ok {
		return nil, apierr.Newf(apierr.TaskNotFound, "No task is named %q; list tasks at GET /v1/tasks.", name)
	}
	if d.Removed {
		return nil, removedError(d)
	}
	return d, nil
}

// All returns every task in catalogue order, deprecated and removed ones
// included; callers filter Removed.
func All() []*Definition {
	load()
	return append([]*Definition(nil), catList...)
}

// Runnable returns the tasks that can be called (not removed), in order.
func Runnable() []*Definition {
	var out []*Definition
	for _, d := range All() {
		if !d.Removed {
			out = append(out, d)
		}
	}
	return out
}

func removedError(d *Definition) *apierr.Error {
	msg := "The task " + d.Name + " was removed."
	if d.ReplacedBy != "" {
		msg += " Use " + d.ReplacedBy + " instead."
	}
	return apierr.New(apierr.TaskRemoved, msg)
}
