package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// echoFamily is a family defined only in this test: test.echo writes its
// text, in the case asked, as copies plain-text files, with a vocabulary
// and a concept of its own.
func echoFamily() tasks.Family {
	cases := tasks.Vocabulary{Name: "echo_case", Description: "How test.echo writes its text.",
		Values: []tasks.VocabValue{
			{Value: "as_sent", Label: "As sent", Description: "The text unchanged.", Default: true},
			{Value: "upper", Label: "Upper case", Description: "The text in capitals."},
		}, Default: new("as_sent"), Concept: new("echo")}
	props := map[string]any{
		"text": map[string]any{
			"type":        "string",
			"minLength":   1,
			"maxLength":   64,
			"description": "The text to write.",
		},
		"copies": map[string]any{
			"type":        "integer",
			"minimum":     1,
			"maximum":     3,
			"default":     1,
			"description": "How many files to write.",
		},
		"case": tasks.VocabEnum(cases, "How to write the text."),
	}
	d := &tasks.Definition{
		Name: "test.echo", Title: "Echo a text", Description: "Writes its text as plain-text files.",
		Category: tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(
			tasks.ObjectSchema("test.echo input", "A text to write.", props, []string{"text"}, nil),
		),
		OutputSchema: tasks.MustJSON(map[string]any{
			"$schema": tasks.SchemaDialect, "type": "object", "description": "The data of one file.",
			"properties": map[string]any{
				"index": map[string]any{"type": "integer", "minimum": 0},
				"case":  map[string]any{"type": "string", tasks.VocabKeyword: "echo_case"},
			},
			"required": []string{"index", "case"},
		}),
		Runner:  tasks.Typed[echoInput](echoRunner{}),
		Pricing: tasks.Pricing{CreditType: contract.CreditService, PerOutput: 3},
		Docs: tasks.Docs{
			Lead: "test.echo writes its text back.", BuiltFor: []string{"Proving a family is one package."},
			WhatYouGet:  []string{"copies text files."},
			Outputs:     tasks.DocsOutputs{Count: "copies files (1 to 3).", CountDependsOn: []string{"copies"}},
			Specs:       []tasks.SpecRow{},
			Limitations: []string{},
			Errors:      tasks.ErrorList(apierr.FieldNotAccepted, apierr.InvalidOption),
		},
		Examples: []tasks.Example{{Name: "hello", Title: "Hello twice", Description: "Two files.",
			Input: json.RawMessage(`{"text":"hello","copies":2,"case":"upper"}`)}},
		Produces: []string{"echo", "job"},
		Uses:     []string{"credit_hold"},
	}
	return tasks.Family{Name: "test", Tasks: []*tasks.Definition{d}, Vocabularies: []tasks.Vocabulary{cases},
		Concepts: []tasks.Concept{
			{Name: "echo", Short: "Text written back.", Long: "What test.echo makes.", Related: []string{"job"}},
		}}
}

// echoInput is a test.echo request, defaults applied.
type echoInput struct {
	Text   string `json:"text"`
	Copies int    `json:"copies"`
	Case   string `json:"case"`
}

// echoRunner writes one file per copy.
type echoRunner struct{}

func (echoRunner) Plan(in *echoInput) tasks.Plan {
	return tasks.Plan{Steps: in.Copies, Phase: "echoing"}
}

func (echoRunner) Step(_ context.Context, in *echoInput, i int) (tasks.Output, error) {
	text, c := in.Text, in.Case
	if c == "upper" {
		text = strings.ToUpper(text)
	}
	return tasks.Output{
		Data:      []byte(text),
		MediaType: "text/plain",
		Ext:       "txt",
		Meta:      map[string]any{"index": i, "case": c},
	}, nil
}

// TestATaskDefinedInATestIsServedAndRuns registers a family that exists
// only in this test, the way a family package does, and finds its task at
// every catalogue endpoint and running end to end.
func TestATaskDefinedInATestIsServedAndRuns(t *testing.T) {
	t.Parallel()
	reg := tasks.NewRegistry()
	require.NoError(t, reg.Add(echoFamily()))
	taskstest.Check(t, reg)
	s := newStack(t, stackOptions{credits: 100, registry: reg})
	get := func(path string) response {
		t.Helper()
		res := s.do(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, res.status, "%s: %s", path, res.body)
		return res
	}

	list := get("/v1/tasks").json(t)["items"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, "test.echo", list[0].(map[string]any)["name"])
	task := get("/v1/tasks/test.echo").json(t)
	require.Equal(t, "records_libraries", task["category"])
	require.Contains(t, task["docs"].(map[string]any)["errors"], "invalid_option")
	for _, doc := range []string{"/v1/tasks/test.echo/openapi.json", "/v1/openapi.json"} {
		require.Contains(t, get(doc).json(t)["paths"], "/v1/tasks/test.echo/estimate", doc)
	}
	require.Contains(t, string(get("/v1/tasks/llms.txt").body), "/v1/tasks/test.echo/llms.txt")
	page := string(get("/v1/tasks/test.echo/llms.txt").body)
	require.Contains(t, page, "# test.echo: Echo a text")
	require.Contains(t, page, "- 3 service_credits per file")

	ex := get("/v1/tasks/test.echo/examples").json(t)["items"].([]any)[0].(map[string]any)
	files := ex["files_delivered"].([]any)
	require.Len(t, files, 2)
	link := files[1].(map[string]any)["url"].(string)
	require.Equal(t, "HELLO", string(get(strings.TrimPrefix(link, s.srv.URL)).body))

	prices := get("/v1/pricing").json(t)["items"].([]any)
	require.Len(t, prices, 1)
	require.Equal(t, float64(3), prices[0].(map[string]any)["per_output"])
	est := s.do(http.MethodPost, "/v1/tasks/test.echo/estimate", map[string]any{"text": "hi", "copies": 2})
	require.Equal(t, http.StatusOK, est.status, "%s", est.body)
	require.Equal(t, float64(6), est.json(t)["credits"])

	vocab := get("/v1/vocab/echo_case").json(t)
	require.Contains(t, fmt.Sprint(vocab["used_in"]), "test.echo")
	require.Equal(t, []any{"test.echo"}, get("/v1/concepts/echo").json(t)["produced_by"])
	require.Equal(t, http.StatusNotFound, s.do(http.MethodGet, "/v1/tasks/pattern.generate", nil).status,
		"the stack serves its own registry only")

	res := s.do(
		http.MethodPost,
		"/v1/tasks/test.echo",
		map[string]any{"text": "hi", "copies": 2, "case": "upper"},
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	out := res.json(t)["files"].([]any)
	require.Len(t, out, 2)
	for i, f := range out {
		file := f.(map[string]any)
		require.Equal(t, map[string]any{"index": float64(i), "case": "upper"}, file["data"])
		got, err := http.Get(file["url"].(string))
		require.NoError(t, err)
		body, err := io.ReadAll(got.Body)
		require.NoError(t, got.Body.Close())
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode)
		require.Equal(t, "HI", string(body))
	}
	require.Equal(t, int64(100-6), s.balance())
}
