package catalogue_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

func TestVocabularies(t *testing.T) {
	c := served()
	names := map[string]bool{}
	for _, v := range c.Vocabularies() {
		require.False(t, names[v.Name], "duplicate vocabulary %s", v.Name)
		names[v.Name] = true
		require.NotEmpty(t, v.Description)
		require.NotEmpty(t, v.Values, v.Name)
		require.NotEmpty(t, v.UsedIn, "%s is used somewhere", v.Name)
		seen := map[string]bool{}
		for _, x := range v.Values {
			require.NotEmpty(t, x.Label)
			require.NotEmpty(t, x.Description)
			require.False(t, seen[x.Value])
			seen[x.Value] = true
		}
		if v.Default != nil {
			require.True(t, seen[*v.Default], "%s default is a value", v.Name)
		}
		if v.Concept != nil {
			_, ok := c.Concept(*v.Concept)
			require.True(t, ok, "%s concept %s", v.Name, *v.Concept)
		}
		for _, u := range v.UsedIn {
			require.Contains(t, []string{"input", "output"}, u.Direction)
		}
	}
	for _, v := range c.Tasks().Vocabularies() {
		require.True(t, names[v.Name], "registry vocabulary %s is served", v.Name)
	}
	for _, n := range []string{"webhook_event", "error_type", "resolution", "use_case"} {
		require.True(t, names[n], n)
	}
	require.Equal(
		t,
		[]string{"job.started", "job.progress", "job.succeeded", "job.failed", "job.cancelled",
			"spend.threshold", "batch.completed", "ping"},
		c.VocabValues("webhook_event"),
	)
	var types []string
	for _, ty := range apierr.Types {
		types = append(types, string(ty.Type))
	}
	require.Equal(t, types, c.VocabValues("error_type"))
	require.Equal(t, tasks.Categories(), c.VocabValues("task_category"))
	_, ok := c.Vocabulary("nope")
	require.False(t, ok)
	require.Nil(t, c.VocabValues("nope"))
}

// TestSchemaFieldsAreInUsedIn checks every x-vocab field of every task is a
// used_in row of its vocabulary, with an enum of exactly its values and
// their aliases.
func TestSchemaFieldsAreInUsedIn(t *testing.T) {
	c := served()
	for _, d := range c.Tasks().Runnable() {
		for _, f := range d.VocabFields() {
			v, ok := c.Vocabulary(f.Vocab)
			require.True(t, ok, "%s %s", d.Name, f.Vocab)
			require.Contains(t, v.UsedIn, tasks.UsedIn{Where: d.Name, Field: f.Field, Direction: f.Direction})
			if f.Enum != nil {
				require.Equal(t, v.Accepted(), f.Enum, "%s %s", d.Name, f.Field)
				require.Equal(t, v.AliasMap(), f.Aliases, "%s %s", d.Name, f.Field)
			}
		}
	}
	res, _ := c.Vocabulary("resolution")
	require.Contains(t, res.UsedIn, tasks.UsedIn{Where: "pattern.generate", Field: "resolution", Direction: "input"})
	require.Contains(
		t,
		res.UsedIn,
		tasks.UsedIn{Where: "pattern.generate", Field: "data.resolution", Direction: "output"},
	)
	sc, _ := c.Vocabulary("colour_scheme")
	require.Contains(t, sc.UsedIn, tasks.UsedIn{Where: "palette.generate", Field: "schemes[]", Direction: "input"})
}

func TestConcepts(t *testing.T) {
	c := served()
	all := c.Concepts()
	names := map[string]bool{}
	for _, x := range all {
		require.False(t, names[x.Name], "duplicate concept %s", x.Name)
		names[x.Name] = true
	}
	for _, x := range all {
		require.NotEmpty(t, x.Short)
		require.NotEmpty(t, x.Long)
		require.NotNil(t, x.Related)
		require.NotNil(t, x.ProducedBy)
		require.NotNil(t, x.UsedBy)
		for _, r := range x.Related {
			require.True(t, names[r], "%s related %s", x.Name, r)
		}
		for _, n := range slices.Concat(x.ProducedBy, x.UsedBy) {
			_, err := c.Tasks().Lookup(n)
			require.NoError(t, err, "%s names task %s", x.Name, n)
		}
	}
	for _, d := range c.Tasks().Runnable() {
		for _, n := range slices.Concat(d.Produces, d.Uses) {
			require.True(t, names[n], "%s names the unknown concept %s", d.Name, n)
		}
	}
	seed, ok := c.Concept("seed")
	require.True(t, ok)
	require.Contains(t, seed.UsedBy, "pattern.generate")
	_, ok = c.Concept("nope")
	require.False(t, ok)
}

// TestTasksNameTasks checks every task a task page compares or relates to
// is in the catalogue.
func TestTasksNameTasks(t *testing.T) {
	c := served()
	for _, d := range c.Tasks().Runnable() {
		for _, x := range d.Docs.Compares {
			_, err := c.Tasks().Lookup(x.Task)
			require.NoError(t, err, d.Name)
		}
		for _, r := range d.Docs.Related {
			_, err := c.Tasks().Lookup(r.Task)
			require.NoError(t, err, d.Name)
		}
		if d.Status != "" {
			_, err := c.Tasks().Lookup(d.ReplacedBy)
			require.NoError(t, err, d.Name)
		}
	}
}

func TestViews(t *testing.T) {
	c := served()
	views := c.Views()
	require.Len(t, views, len(c.Tasks().Runnable()))
	for i, d := range c.Tasks().Runnable() {
		b, err := json.Marshal(views[i])
		require.NoError(t, err)
		var view map[string]any
		require.NoError(t, json.Unmarshal(b, &view))
		require.Equal(t, d.Name, view["name"])
		for _, k := range []string{"name", "inputSchema", "outputSchema", "title", "description", "category", "unit",
			"docs"} {
			require.Contains(t, view, k)
		}
		if d.Status == "" {
			require.NotContains(t, view, "status")
			require.NotContains(t, view, "replaced_by")
		} else {
			require.Equal(t, "deprecated", view["status"])
			require.Equal(t, d.ReplacedBy, view["replaced_by"])
		}
	}
}

// TestVocabulariesServedByNameAreShared enforces the spec's rule of
// GET /v1/vocab/{name}: a list that only one task field takes has no name
// there; its values are in the task schema. Every vocabulary a task family
// registers is used by two fields or more — its used_in rows: task input
// and output fields, and the service's reads that carry it (a record's
// looks). The service's own vocabularies describe its own objects and
// headers, not task fields; they are the documented list below (README,
// "Decisions the spec leaves open").
func TestVocabulariesServedByNameAreShared(t *testing.T) {
	c := served()
	family := map[string]bool{}
	for _, v := range c.Tasks().Vocabularies() {
		family[v.Name] = true
	}
	var service []string
	for _, v := range c.Vocabularies() {
		if !family[v.Name] {
			service = append(service, v.Name)
			continue
		}
		fields := map[tasks.UsedIn]bool{}
		for _, u := range v.UsedIn {
			fields[u] = true
		}
		require.GreaterOrEqual(t, len(fields), 2,
			"%s is served by name, so two fields or more use it; a list one field takes is a tasks.FieldEnum: %v",
			v.Name, v.UsedIn)
	}
	require.Equal(t, []string{"webhook_event", "stream_event", "error_type", "task_category", "credit_type",
		"spend_period", "spend_scope", "job_lifecycle", "job_outcome"}, service, "the service's own vocabularies")

	// The lists one field takes: no name, and the field's schema has the
	// values, the default and what each does.
	for _, tc := range []struct{ vocab, task, field, def string }{
		{"slide_transition", "video.slideshow", "transition", "crossfade"},
		{"frame_fit", "video.slideshow", "fit", "cover"},
		{"shot_resolution", "photoshoot.create", "resolution", "1024"},
		{"upscale_factor", "photoshoot.upscale", "factor", "2"},
	} {
		_, ok := c.Vocabulary(tc.vocab)
		require.False(t, ok, "%s has no name", tc.vocab)
		d, err := c.Tasks().Lookup(tc.task)
		require.NoError(t, err)
		var schema struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(d.InputSchema, &schema))
		f := schema.Properties[tc.field]
		require.NotContains(t, f, tasks.VocabKeyword, "%s.%s", tc.task, tc.field)
		require.Equal(t, tc.def, f["default"], "%s.%s", tc.task, tc.field)
		enum, _ := f["enum"].([]any)
		require.NotEmpty(t, enum, "%s.%s", tc.task, tc.field)
		for _, v := range enum {
			require.Regexp(t, " "+regexp.QuoteMeta(v.(string))+`( \(the default\))?: \w`, f["description"],
				"%s.%s says what %v does", tc.task, tc.field, v)
		}
	}
}
