package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// TestVocabularyAliasesAreAccepted sends, for every vocabulary with
// aliases, every alias to every task input field bound to it: the served
// schema validates the body, estimate answers 200 and submit 202, and the
// job's input reads the value the alias stands for.
func TestVocabularyAliasesAreAccepted(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true})
	c := served()
	tried := map[string]int{}
	for _, d := range c.Tasks().Runnable() {
		var schema *jsonschema.Schema
		for _, f := range d.VocabFields() {
			v, ok := c.Vocabulary(f.Vocab)
			require.True(t, ok, f.Vocab)
			aliases := aliasMap(v)
			if f.Direction != "input" || len(aliases) == 0 {
				continue
			}
			if schema == nil {
				schema = servedInputSchema(t, s, d.Name)
			}
			for _, alias := range slices.Sorted(maps.Keys(aliases)) {
				t.Run(d.Name+" "+f.Field+" "+alias, func(t *testing.T) {
					body := withVocabValue(t, d, f.Field, alias, aliases[alias])
					raw, err := json.Marshal(body)
					require.NoError(t, err)
					inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
					require.NoError(t, err)
					require.NoError(t, schema.Validate(inst), "the served schema takes %s", raw)

					est := s.do(http.MethodPost, "/v1/tasks/"+d.Name+"/estimate", body)
					require.Equal(t, http.StatusOK, est.status, "estimate %s: %s", raw, est.body)
					sub := s.do(http.MethodPost, "/v1/tasks/"+d.Name, body)
					require.Equal(t, http.StatusAccepted, sub.status, "submit %s: %s", raw, sub.body)

					job, err := models.JobByID(context.Background(), s.db, s.userID, sub.json(t)["job_id"].(string))
					require.NoError(t, err)
					var stored map[string]any
					require.NoError(t, json.Unmarshal([]byte(job.Input), &stored))
					require.Equal(
						t,
						[]any{aliases[alias]},
						valuesAt(stored, f.Field),
						"the job runs with the value: %s",
						job.Input,
					)
				})
				tried[f.Vocab]++
			}
		}
	}
	for _, v := range c.Vocabularies() {
		if len(aliasMap(v)) > 0 && len(usedAsInput(c, v.Name)) > 0 {
			require.Equal(
				t,
				len(aliasMap(v))*len(usedAsInput(c, v.Name)),
				tried[v.Name],
				"every alias of %s on every field",
				v.Name,
			)
		}
	}
	require.Positive(t, tried["pattern_kind"])
}

// TestAliasRunsAsItsValue runs a job sent with an alias: its step draws the
// kind the alias stands for, as the file's data says.
func TestAliasRunsAsItsValue(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	res := s.submit(
		map[string]any{"kind": "tartan", "colors": []string{"#0B3D2E", "#B22222"}, "resolution": "512"},
		"Prefer",
		"wait=60",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	file := res.json(t)["files"].([]any)[0].(map[string]any)
	require.Equal(t, "plaid", file["data"].(map[string]any)["kind"])
}

// aliasMap maps each alias of a vocabulary's values to its value.
func aliasMap(v tasks.Vocabulary) map[string]string {
	out := map[string]string{}
	for _, x := range v.Values {
		for _, a := range x.Aliases {
			out[a] = x.Value
		}
	}
	return out
}

// usedAsInput are the input fields bound to vocabulary name.
func usedAsInput(c *catalogue.Catalogue, name string) []tasks.UsedIn {
	v, _ := c.Vocabulary(name)
	var out []tasks.UsedIn
	for _, u := range v.UsedIn {
		if u.Direction == "input" && boundField(c, u) {
			out = append(out, u)
		}
	}
	return out
}

// boundField says whether a used_in row is a task input field whose schema
// takes the vocabulary's values (x-vocab); a row naming a free-text field
// read for the vocabulary's words (design.from_prompt's prompt) is not.
func boundField(c *catalogue.Catalogue, u tasks.UsedIn) bool {
	d, err := c.Tasks().Lookup(u.Where)
	if err != nil {
		return false
	}
	for _, f := range d.VocabFields() {
		if f.Direction == "input" && f.Field == u.Field {
			return true
		}
	}
	return false
}

// servedInputSchema compiles the inputSchema GET /v1/tasks/{name} serves.
func servedInputSchema(t *testing.T, s *testStack, name string) *jsonschema.Schema {
	res := s.do(http.MethodGet, "/v1/tasks/"+name, nil)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var task struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	require.NoError(t, json.Unmarshal(res.body, &task))
	sch, err := tasks.CompileSchema(name+"/served", task.InputSchema)
	require.NoError(t, err)
	return sch
}

// withVocabValue is the task's first example with the field at path (a.b;
// a list's items written a[]) set to alias, which stands for value: a list
// becomes that one item; a variant field's alias drops the fields its value
// does not use; a list of objects keeps its first item only.
func withVocabValue(t *testing.T, d *tasks.Definition, path, alias, value string) map[string]any {
	body := map[string]any{}
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &body))
	if d.Variant != nil && path == d.Variant.Field {
		for field, users := range d.Variant.Only {
			if !slices.Contains(users, value) {
				delete(body, field)
			}
		}
	}
	cur := body
	parts := strings.Split(path, ".")
	for i, p := range parts {
		name, list := strings.CutSuffix(p, "[]")
		switch {
		case i == len(parts)-1 && list:
			cur[name] = []any{alias}
		case i == len(parts)-1:
			cur[name] = alias
		case list:
			items, _ := cur[name].([]any)
			require.NotEmpty(t, items, "%s: the example has no item of %s", d.Name, path)
			cur[name] = items[:1]
			cur = items[0].(map[string]any)
		default:
			next, ok := cur[name].(map[string]any)
			require.True(t, ok, "%s: the example has no object %s", d.Name, path)
			cur = next
		}
	}
	return body
}

// valuesAt collects the values at path (a.b; a list's items written a[]).
func valuesAt(v any, path string) []any {
	if path == "" {
		return []any{v}
	}
	head, rest, _ := strings.Cut(path, ".")
	name, list := strings.CutSuffix(head, "[]")
	m, _ := v.(map[string]any)
	x, ok := m[name]
	if !ok {
		return nil
	}
	if !list {
		return valuesAt(x, rest)
	}
	var out []any
	items, _ := x.([]any)
	for _, it := range items {
		out = append(out, valuesAt(it, rest)...)
	}
	return out
}
