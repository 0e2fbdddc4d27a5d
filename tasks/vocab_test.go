package tasks

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

func TestVocabularies(t *testing.T) {
	all := Vocabularies()
	names := map[string]bool{}
	for _, v := range all {
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
			_, ok := ConceptByName(*v.Concept)
			require.True(t, ok, "%s concept %s", v.Name, *v.Concept)
		}
		for _, u := range v.UsedIn {
			require.Contains(t, []string{"input", "output"}, u.Direction)
		}
	}
	for _, n := range []string{"webhook_event", "error_type", "resolution", "use_case"} {
		require.True(t, names[n], n)
	}
	require.Equal(t, []string{"job.started", "job.progress", "job.succeeded", "job.failed", "job.cancelled", "ping"}, VocabValues("webhook_event"))
	var types []string
	for _, ty := range apierr.Types {
		types = append(types, string(ty.Type))
	}
	require.Equal(t, types, VocabValues("error_type"))
	_, ok := VocabByName("nope")
	require.False(t, ok)
}

// TestSchemaEnumsComeFromVocabularies checks every x-vocab property's enum
// is exactly its vocabulary's values and every such field is in used_in.
func TestSchemaEnumsComeFromVocabularies(t *testing.T) {
	for _, d := range Runnable() {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(d.InputSchema, &doc))
		walkSchemas(doc, func(s map[string]any) {
			name, ok := s[VocabKeyword].(string)
			if !ok {
				return
			}
			var enum []string
			for _, e := range s["enum"].([]any) {
				enum = append(enum, e.(string))
			}
			require.Equal(t, VocabValues(name), enum, "%s %s", d.Name, name)
		})
	}
	res, _ := VocabByName("resolution")
	require.Contains(t, res.UsedIn, UsedIn{Where: "pattern.generate", Field: "resolution", Direction: "input"})
	require.Contains(t, res.UsedIn, UsedIn{Where: "pattern.generate", Field: "data.resolution", Direction: "output"})
	sc, _ := VocabByName("colour_scheme")
	require.Contains(t, sc.UsedIn, UsedIn{Where: "palette.generate", Field: "schemes[]", Direction: "input"})
}

func walkSchemas(s map[string]any, f func(map[string]any)) {
	f(s)
	for _, k := range []string{"properties"} {
		if m, ok := s[k].(map[string]any); ok {
			for _, v := range m {
				if c, ok := v.(map[string]any); ok {
					walkSchemas(c, f)
				}
			}
		}
	}
	if c, ok := s["items"].(map[string]any); ok {
		walkSchemas(c, f)
	}
}

func TestConcepts(t *testing.T) {
	all := Concepts()
	names := map[string]bool{}
	for _, c := range all {
		names[c.Name] = true
	}
	for _, c := range all {
		require.NotEmpty(t, c.Short)
		require.NotEmpty(t, c.Long)
		require.NotNil(t, c.Related)
		require.NotNil(t, c.ProducedBy)
		require.NotNil(t, c.UsedBy)
		for _, r := range c.Related {
			require.True(t, names[r], "%s related %s", c.Name, r)
		}
		for _, n := range slices.Concat(c.ProducedBy, c.UsedBy) {
			_, err := Lookup(n)
			require.NoError(t, err, "%s names task %s", c.Name, n)
		}
	}
	_, ok := ConceptByName("nope")
	require.False(t, ok)
}
