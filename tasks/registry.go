package tasks

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/taskplatform/taskplatform/apierr"
)

// Categories lists the six task categories in catalogue order.
func Categories() []string {
	return []string{
		CategoryDesignGeneration, CategoryImageEditing, CategoryPhotoshoots,
		CategoryVideo, CategoryProductionPrep, CategoryRecordsLibraries,
	}
}

// Family is what one family package adds to a registry: its tasks and the
// vocabularies, concepts and recipes they bring. Vocabularies of fields
// that several families use belong in SharedVocabularies instead.
type Family struct {
	// Name names the family, for example pattern.
	Name         string
	Tasks        []*Definition
	Vocabularies []Vocabulary
	Concepts     []Concept
	Recipes      []Recipe
	// Records are the kinds of record the family keeps, served and
	// documented by the API from their declarations.
	Records []RecordKind
}

// Registry holds the tasks of a catalogue with the vocabularies, concepts
// and recipes their families add. The service serves one, assembled from
// every family at start; a test may build its own. It is safe for
// concurrent use.
type Registry struct {
	mu       sync.RWMutex
	families []string
	byName   map[string]*Definition
	ordered  []*Definition
	vocabs   []Vocabulary
	concepts []Concept
	recipes  []Recipe
	records  []RecordKind
}

// NewRegistry is a registry holding no task, only SharedVocabularies.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*Definition{}, vocabs: SharedVocabularies()}
}

// Add registers a family. It adds nothing and answers an error when the
// family, one of its tasks, vocabularies, concepts, recipes or record kinds
// has a name already registered; when a record kind's declaration does not
// hold together (RecordKind); when a task has no name, an unknown category, no
// Runner or no input schema while runnable; or when a schema field marked
// x-vocab names a vocabulary the registry does not hold or lists other
// values or aliases than it; or when a vocabulary accepts a spelling twice.
func (r *Registry) Add(f Family) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.check(f); err != nil {
		return fmt.Errorf("tasks: family %q: %w", f.Name, err)
	}
	r.families = append(r.families, f.Name)
	r.vocabs = append(r.vocabs, f.Vocabularies...)
	r.concepts = append(r.concepts, f.Concepts...)
	r.recipes = append(r.recipes, f.Recipes...)
	r.records = append(r.records, f.Records...)
	for _, d := range f.Tasks {
		r.byName[d.Name] = d
		r.ordered = append(r.ordered, d)
	}
	slices.SortStableFunc(r.ordered, func(a, b *Definition) int { return place(a) - place(b) })
	return nil
}

// place orders the catalogue: current tasks by category, then deprecated
// ones, then removed ones; registration order within each.
func place(d *Definition) int {
	n := len(Categories()) + 1
	cat := slices.Index(Categories(), d.Category)
	switch {
	case d.Removed:
		return 2 * n
	case d.Status != "":
		return n
	}
	return cat
}

func (r *Registry) check(f Family) error {
	if f.Name == "" || slices.Contains(r.families, f.Name) {
		return errors.New("the family needs a name of its own")
	}
	vocabs := map[string]Vocabulary{}
	for _, v := range slices.Concat(r.vocabs, f.Vocabularies) {
		if _, dup := vocabs[v.Name]; dup || v.Name == "" {
			return fmt.Errorf("vocabulary %q is registered twice or has no name", v.Name)
		}
		if err := v.checkAliases(); err != nil {
			return err
		}
		vocabs[v.Name] = v
	}
	if err := unique("concept", slices.Concat(r.concepts, f.Concepts), func(c Concept) string {
		return c.Name
	}); err != nil {
		return err
	}
	if err := unique("recipe", slices.Concat(r.recipes, f.Recipes), func(c Recipe) string { return c.Name }); err != nil {
		return err
	}
	kinds := slices.Concat(r.records, f.Records)
	if err := unique("record kind", kinds, func(k RecordKind) string { return k.Name }); err != nil {
		return err
	}
	for _, k := range f.Records {
		if err := k.check(); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, d := range f.Tasks {
		if d.Name == "" || seen[d.Name] || r.byName[d.Name] != nil {
			return fmt.Errorf("task %q is registered twice or has no name", d.Name)
		}
		seen[d.Name] = true
		if !slices.Contains(Categories(), d.Category) {
			return fmt.Errorf("task %s: unknown category %q", d.Name, d.Category)
		}
		if err := checkLifecycle(d); err != nil {
			return fmt.Errorf("task %s: %w", d.Name, err)
		}
		if d.Removed {
			continue
		}
		if d.Runner == nil || len(d.InputSchema) == 0 {
			return fmt.Errorf("task %s: a runnable task needs a Runner and an input schema", d.Name)
		}
		for _, vf := range d.VocabFields() {
			v, ok := vocabs[vf.Vocab]
			if !ok {
				return fmt.Errorf("task %s: %s names the unknown vocabulary %q", d.Name, vf.Field, vf.Vocab)
			}
			if vf.Enum != nil && (!slices.Equal(vf.Enum, v.Accepted()) || !maps.Equal(vf.Aliases, v.AliasMap())) {
				return fmt.Errorf(
					"task %s: the enum or aliases of %s are not vocabulary %s's",
					d.Name,
					vf.Field,
					vf.Vocab,
				)
			}
		}
	}
	return nil
}

func unique[T any](what string, items []T, name func(T) string) error {
	seen := map[string]bool{}
	for _, it := range items {
		n := name(it)
		if n == "" || seen[n] {
			return fmt.Errorf("%s %q is registered twice or has no name", what, n)
		}
		seen[n] = true
	}
	return nil
}

// Lookup returns the task of a name: task_not_found (404) when no task has
// it, task_removed (410) when the task was removed.
func (r *Registry) Lookup(name string) (*Definition, error) {
	r.mu.RLock()
	d, ok := r.byName[name]
	r.mu.RUnlock()
	if !ok {
		return nil, apierr.Newf(apierr.TaskNotFound, "No task is named %q; list tasks at GET /v1/tasks.", name)
	}
	if d.Removed {
		return nil, removedError(d)
	}
	return d, nil
}

// ForJob returns the task a job already admitted runs: a task removed
// after the job started still runs when its definition keeps its Runner
// (so jobs already running finish), while every new call naming it answers
// 410 through Lookup.
func (r *Registry) ForJob(name string) (*Definition, error) {
	r.mu.RLock()
	d, ok := r.byName[name]
	r.mu.RUnlock()
	if ok && d.Removed && d.Runner != nil {
		return d, nil
	}
	return r.Lookup(name)
}

// All returns every task in catalogue order, deprecated and removed ones
// included; callers filter Removed. The order is: current tasks by category
// (in the order of Categories), then deprecated tasks, then removed ones,
// each in the order they were registered.
func (r *Registry) All() []*Definition {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.ordered)
}

// Runnable returns the tasks that can be called (not removed), in order.
func (r *Registry) Runnable() []*Definition {
	var out []*Definition
	for _, d := range r.All() {
		if !d.Removed {
			out = append(out, d)
		}
	}
	return out
}

// Vocabularies returns SharedVocabularies, then every family's in the
// order the families were added.
func (r *Registry) Vocabularies() []Vocabulary {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.vocabs)
}

// Vocabulary returns the registered vocabulary of a name.
func (r *Registry) Vocabulary(name string) (Vocabulary, bool) {
	for _, v := range r.Vocabularies() {
		if v.Name == name {
			return v, true
		}
	}
	return Vocabulary{}, false
}

// Concepts returns the families' concepts in the order they were added.
func (r *Registry) Concepts() []Concept {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.concepts)
}

// Recipes returns the families' recipes in the order they were added.
func (r *Registry) Recipes() []Recipe {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.recipes)
}

// ExampleFile returns the file an example of any task sends under the
// handle ref (file:example_… or art:example_…); ok is false for any other
// reference.
func (r *Registry) ExampleFile(ref string) (f ExampleFile, ok bool) {
	if !strings.HasPrefix(ref, ExampleFilePrefix) && !strings.HasPrefix(ref, ExampleArtPrefix) {
		return ExampleFile{}, false
	}
	for _, d := range r.All() {
		for _, ex := range d.Examples {
			for _, f := range ex.Files {
				if f.Ref == ref {
					return f, true
				}
			}
		}
	}
	return ExampleFile{}, false
}

func removedError(d *Definition) *apierr.Error {
	msg := "The task " + d.Name + " was removed."
	if d.ReplacedBy != "" {
		msg += " Use " + d.ReplacedBy + " instead."
	}
	return apierr.New(apierr.TaskRemoved, msg)
}

// checkLifecycle holds a task's life cycle to what the changelog needs: a
// deprecated task names its date, its replacement and the migration step; a
// removed one its removal date; every date is YYYY-MM-DD.
func checkLifecycle(d *Definition) error {
	for _, date := range []string{d.AddedOn, d.DeprecatedOn, d.RemovalOn, d.RemovedOn} {
		if _, err := time.Parse(time.DateOnly, date); date != "" && err != nil {
			return fmt.Errorf("date %q is not YYYY-MM-DD", date)
		}
	}
	switch {
	case d.Status != "" && d.Status != "deprecated":
		return fmt.Errorf("unknown status %q", d.Status)
	case d.Status == "deprecated" && (d.DeprecatedOn == "" || d.ReplacedBy == "" || d.Migration == ""):
		return errors.New("a deprecated task needs DeprecatedOn, ReplacedBy and Migration (its changelog entry)")
	case d.Removed && d.RemovedOn == "":
		return errors.New("a removed task needs RemovedOn (its changelog entry)")
	}
	return nil
}
