package tasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// countRunner plans count outputs of one byte each.
type countRunner struct{}

func (countRunner) Plan(in Input) Plan {
	switch n := in.Fields["count"].(type) {
	case int64: // as Validate gives it
		return Plan{Steps: int(n)}
	case float64: // after a JSON round trip
		return Plan{Steps: int(n)}
	}
	return Plan{Steps: 1}
}

func (countRunner) Step(_ context.Context, _ Input, i int) (Output, error) {
	return Output{Data: []byte{byte(i)}, MediaType: "application/octet-stream", Ext: "bin"}, nil
}

// task is a minimal runnable task of a name and category.
func task(name, category string) *Definition {
	return &Definition{Name: name, Category: category, Runner: countRunner{},
		InputSchema: MustJSON(ObjectSchema(name+" input", "", map[string]any{}, nil, nil))}
}

func TestRegistryOrderAndLookup(t *testing.T) {
	r := NewRegistry()
	old := task("a.old", CategoryDesignGeneration)
	old.Status, old.ReplacedBy, old.DeprecatedOn, old.Migration = "deprecated", "a.new", "2026-01-02", "Call a.new."
	gone := &Definition{
		Name:       "a.gone",
		Category:   CategoryDesignGeneration,
		Removed:    true,
		ReplacedBy: "a.new",
		RemovedOn:  "2026-01-03",
	}
	require.NoError(t, r.Add(Family{Name: "a", Tasks: []*Definition{
		task("a.prep", CategoryProductionPrep), old, gone, task("a.new", CategoryDesignGeneration),
	}}))
	require.NoError(t, r.Add(Family{Name: "b", Tasks: []*Definition{
		task("b.video", CategoryVideo), task("b.design", CategoryDesignGeneration),
	}}))
	var names []string
	for _, d := range r.All() {
		names = append(names, d.Name)
	}
	// Current tasks by category, then deprecated, then removed; within
	// each, registration order.
	require.Equal(t, []string{"a.new", "b.design", "b.video", "a.prep", "a.old", "a.gone"}, names)
	require.Len(t, r.Runnable(), 5)

	tests := []struct {
		name   string
		code   apierr.Code
		status int
	}{
		{"a.new", "", 0},
		{"a.old", "", 0},
		{"a.gone", apierr.TaskRemoved, 410},
		{"no.such.task", apierr.TaskNotFound, 404},
		{"", apierr.TaskNotFound, 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := r.Lookup(tc.name)
			if tc.code == "" {
				require.NoError(t, err)
				require.Equal(t, tc.name, d.Name)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code)
			require.Equal(t, tc.status, e.Status)
		})
	}
	_, err := r.Lookup("a.gone")
	require.Contains(t, err.Error(), "Use a.new instead.")
	_, err = gone.Validate([]byte(`{}`))
	require.Equal(t, apierr.TaskRemoved, apierr.As(err).Code, "a removed task validates nothing")
}

func TestRegistryRefuses(t *testing.T) {
	bad := func(mut func(d *Definition)) *Definition {
		d := task("x.one", CategoryDesignGeneration)
		mut(d)
		return d
	}
	vocab := Vocabulary{Name: "x_kind", Values: []VocabValue{{Value: "a"}, {Value: "b"}}}
	tests := []struct {
		name string
		f    Family
	}{
		{"no family name", Family{}},
		{"family twice", Family{Name: "base"}},
		{"task twice", Family{Name: "x", Tasks: []*Definition{task("base.one", CategoryVideo)}}},
		{
			"task twice in one family",
			Family{Name: "x", Tasks: []*Definition{task("x.one", CategoryVideo), task("x.one", CategoryVideo)}},
		},
		{"no task name", Family{Name: "x", Tasks: []*Definition{task("", CategoryVideo)}}},
		{"unknown category", Family{Name: "x", Tasks: []*Definition{task("x.one", "knitting")}}},
		{"no runner", Family{Name: "x", Tasks: []*Definition{bad(func(d *Definition) { d.Runner = nil })}}},
		{"no input schema", Family{Name: "x", Tasks: []*Definition{bad(func(d *Definition) { d.InputSchema = nil })}}},
		{"shared vocabulary again", Family{Name: "x", Vocabularies: []Vocabulary{ResolutionVocab()}}},
		{"concept twice", Family{Name: "x", Concepts: []Concept{{Name: "base_idea"}}}},
		{"recipe twice", Family{Name: "x", Recipes: []Recipe{{Name: "base_recipe"}}}},
		{"unknown vocabulary", Family{Name: "x", Tasks: []*Definition{bad(func(d *Definition) {
			d.InputSchema = MustJSON(ObjectSchema("x", "", map[string]any{"k": VocabEnum(vocab, "")}, nil, nil))
		})}}},
		{
			"enum other than its vocabulary",
			Family{Name: "x", Vocabularies: []Vocabulary{vocab}, Tasks: []*Definition{bad(func(d *Definition) {
				d.InputSchema = json.RawMessage(
					`{"type":"object","properties":{"k":{"type":"string","enum":["a"],"x-vocab":"x_kind"}}}`,
				)
			})}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			require.NoError(t, r.Add(Family{Name: "base", Tasks: []*Definition{task("base.one", CategoryVideo)},
				Concepts: []Concept{{Name: "base_idea"}}, Recipes: []Recipe{{Name: "base_recipe"}}}))
			require.Error(t, r.Add(tc.f))
			require.Len(t, r.All(), 1, "a refused family adds nothing")
			require.Len(t, r.Vocabularies(), len(SharedVocabularies()))
		})
	}
	r := NewRegistry()
	require.NoError(
		t,
		r.Add(Family{Name: "x", Vocabularies: []Vocabulary{vocab}, Tasks: []*Definition{bad(func(d *Definition) {
			d.InputSchema = MustJSON(ObjectSchema("x", "", map[string]any{"k": VocabEnum(vocab, "")}, nil, nil))
		})}}),
	)
	v, ok := r.Vocabulary("x_kind")
	require.True(t, ok)
	require.Equal(t, []string{"a", "b"}, v.Enum())
}

func TestRegistryExampleFile(t *testing.T) {
	d := task("x.one", CategoryVideo)
	d.Examples = []Example{{Name: "e", Input: json.RawMessage(`{}`),
		Files: []ExampleFile{
			{Ref: ExampleFilePrefix + "leaf", Data: func() []byte { return []byte("leaf") }},
			{Ref: ExampleArtPrefix + "shot", Data: func() []byte { return []byte("shot") }},
		}}}
	r := NewRegistry()
	require.NoError(t, r.Add(Family{Name: "x", Tasks: []*Definition{d}}))
	f, ok := r.ExampleFile("file:example_leaf")
	require.True(t, ok)
	require.Equal(t, []byte("leaf"), f.Data())
	f, ok = r.ExampleFile("art:example_shot") // a delivered file an example stands for
	require.True(t, ok)
	require.Equal(t, []byte("shot"), f.Data())
	for _, ref := range []string{"file:example_nope", "file:leaf", "art:example_leaf", "art:shot", "file:example_shot"} {
		_, ok := r.ExampleFile(ref)
		require.False(t, ok, ref)
	}
}

// A task removed while jobs of it run keeps its Runner for them: new calls
// answer 410, the admitted job still finds its task.
func TestRegistryRemovedTaskFinishesRunningJobs(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	kept := task("a.kept", CategoryDesignGeneration)
	kept.Removed, kept.RemovedOn, kept.ReplacedBy = true, "2026-12-01", "a.new"
	gone := &Definition{Name: "a.gone", Category: CategoryDesignGeneration, Removed: true, RemovedOn: "2026-01-03"}
	require.NoError(
		t,
		r.Add(Family{Name: "a", Tasks: []*Definition{kept, gone, task("a.new", CategoryDesignGeneration)}}),
	)
	_, err := r.Lookup("a.kept")
	var ae *apierr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apierr.TaskRemoved, ae.Code)
	d, err := r.ForJob("a.kept")
	require.NoError(t, err)
	require.Same(t, kept, d)
	_, err = r.ForJob("a.gone")
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apierr.TaskRemoved, ae.Code, "no runner left: the job cannot run")
	d, err = r.ForJob("a.new")
	require.NoError(t, err)
	require.Equal(t, "a.new", d.Name)
}
