package engines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// Models that answer several files in one prediction (a Cog List[Path]
// output). A route or declared task on such a model says how many files
// each prediction answers (Binding.FilesPerPrediction): every file is an
// output of its own, planned, held and charged as such, in order. One
// that does not say is refused at start-up; the other tasks of the engine
// are not.

// ErrListOutput is a route or task on a model whose output is a list of
// files that does not say how many files each prediction answers.
var ErrListOutput = errors.New("the model answers a list of files (a List[Path] output) and the route or task " +
	"does not say how many: set files_per_prediction (a number, or \"$field\" of an integer input field) so " +
	"each file is delivered and charged as an output")

// ErrNotListOutput is a route or task that says its predictions answer
// several files, on a model whose output is one file.
var ErrNotListOutput = errors.New("files_per_prediction says a prediction answers several files, but the " +
	"model answers one file (its /openapi.json Output is not a list)")

// perPrediction is how many files a prediction answers for an input.
type perPrediction struct {
	n     int    // a fixed count; 0 when field says
	field string // the integer input field that says, "" for n
	max   int    // the most it can be
	min   int    // the least it can be
}

// count is the files a prediction answers for input (at least one).
func (p perPrediction) count(input map[string]any) int {
	if p.field == "" {
		return max(p.n, 1)
	}
	n, _ := number(input[p.field])
	return min(max(int(n), 1), p.max)
}

// docs words the count for a task's page.
func (p perPrediction) docs() string {
	if p.field == "" {
		return fmt.Sprint(p.n)
	}
	return fmt.Sprintf("%s (%d to %d)", p.field, p.min, p.max)
}

// readPerPrediction reads a binding's files_per_prediction against the
// task's input schema: nil (one file a prediction), a whole number from 1
// to MaxDeclaredOutputs, or "$field" naming an integer input field with a
// minimum of at least 1 and a maximum of at most MaxDeclaredOutputs.
func readPerPrediction(v any, inputSchema json.RawMessage) (perPrediction, error) {
	if v == nil {
		return perPrediction{n: 1, max: 1, min: 1}, nil
	}
	if s, ok := v.(string); ok && strings.HasPrefix(s, "$") {
		var doc struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		_ = json.Unmarshal(inputSchema, &doc)
		f, ok := doc.Properties[s[1:]]
		maxN, hasMax := number(f["maximum"])
		minN, _ := number(f["minimum"])
		if !ok || f["type"] != "integer" || !hasMax || maxN > MaxDeclaredOutputs || minN < 1 {
			return perPrediction{}, fmt.Errorf("files_per_prediction %s must name an integer input field with a "+
				"minimum of at least 1 and a maximum of at most %d", s, MaxDeclaredOutputs)
		}
		return perPrediction{field: s[1:], max: int(maxN), min: int(minN)}, nil
	}
	n, ok := number(v)
	if !ok || n != float64(int(n)) || n < 1 || n > MaxDeclaredOutputs {
		return perPrediction{}, fmt.Errorf("files_per_prediction %v must be a whole number from 1 to %d or "+
			"\"$field\" of an integer input field", v, MaxDeclaredOutputs)
	}
	return perPrediction{n: int(n), max: int(n), min: int(n)}, nil
}

// ErrNotFileOutput is a route or task on a model whose output is not a
// file or a list of files (a str, a number, a List[str], an object): the
// service delivers files, so none of its predictions could deliver one.
var ErrNotFileOutput = errors.New("the model does not answer files: the service delivers a model's files " +
	"(a Path or List[Path] output, \"format\": \"uri\" in its /openapi.json)")

// modelShape is what a model answers, as its schema tells.
type modelShape struct {
	list  bool   // a list of files (List[Path])
	other string // not files: the Output schema's words ("array of integer"); "" for files
}

// fitsModel holds a binding's files_per_prediction to the model's output
// as the engine tells it at start-up (absent: not known).
func fitsModel(b Binding, m modelShape, known bool) error {
	list := m.list
	switch {
	case !known:
		return nil
	case m.other != "":
		return fmt.Errorf("%w; its Output is %s", ErrNotFileOutput, m.other)
	case list && b.FilesPerPrediction == nil:
		return ErrListOutput
	case !list && b.FilesPerPrediction != nil:
		if n, ok := number(b.FilesPerPrediction); !ok || n != 1 {
			return ErrNotListOutput
		}
	}
	return nil
}

// modelOutput asks an engine that can tell about its model (its schema)
// what it answers, for a few seconds at most; known is false when it
// cannot tell.
func modelOutput(e tasks.Engine) (m modelShape, known bool) {
	c, ok := e.(interface {
		modelOutput(context.Context) (modelShape, bool)
	})
	if !ok {
		return modelShape{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return c.modelOutput(ctx)
}

// outputSchema is a JSON schema's part the shape of an output is read from.
type outputSchema struct {
	Type   string        `json:"type"`
	Format string        `json:"format"`
	Items  *outputSchema `json:"items"`
}

// modelOutput reads the model's schema (Cog's GET /openapi.json, its
// Output component, http.py create_app) where the engine answers within
// the context. Cog writes a file (cog.Path, cog.File) as "type": "string",
// "format": "uri" (v0.16.12 python/cog/types.py, __modify_schema__ and
// __get_pydantic_json_schema__), a List[Path] as an "array" of those, and
// a str, a number or a List[str] without the format. known is false when
// the engine did not answer (it may be starting) or the schema names no
// type (an Any output): nothing is then refused for it.
func (c *cog) modelOutput(ctx context.Context) (modelShape, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base.String()+"/openapi.json", nil)
	if err != nil {
		return modelShape{}, false
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return modelShape{}, false
	}
	defer func() { _ = resp.Body.Close() }()
	var doc struct {
		Components struct {
			Schemas struct {
				Output outputSchema `json:"Output"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&doc) != nil {
		return modelShape{}, false
	}
	out := doc.Components.Schemas.Output
	file := func(s *outputSchema) bool { return s != nil && s.Type == "string" && s.Format == "uri" }
	switch {
	case out.Type == "":
		return modelShape{}, false
	case file(&out):
		return modelShape{}, true
	case out.Type == "array" && file(out.Items):
		return modelShape{list: true}, true
	case out.Type == "array" && out.Items != nil:
		return modelShape{other: "an array of " + out.Items.Type}, true
	}
	return modelShape{other: "a " + out.Type}, true
}
