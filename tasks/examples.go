package tasks

import (
	"context"
	"encoding/json"
	"fmt"
)

// Example is a real request of a task. Its files are made by running the
// task's Runner on it, so they are exactly what a job delivers.
type Example struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Input       json.RawMessage `json:"input"`
	// Files are the files the request sends, by the reference it names them with.
	Files []ExampleFile `json:"files_sent,omitempty"`
}

// ExampleFile is one file an example sends.
type ExampleFile struct {
	Ref       string        `json:"file"`
	Name      string        `json:"name"`
	MediaType string        `json:"media_type"`
	Data      func() []byte `json:"-"`
}

// ExampleOutputsServed says whether the catalogue serves the files its
// examples make. It does not for a task whose steps run on an engine
// (EngineRunner): making them would be a live prediction on the
// operator's model server, run by the api process for any caller of a
// public endpoint and charged to nobody. Such a task's examples show the
// request alone; its files are made by jobs. ExampleOutputs still runs
// them, for the conformance tests.
func (d *Definition) ExampleOutputsServed() bool {
	_, onEngine := d.Runner.(EngineRunner)
	return !onEngine
}

// ExampleOutputs runs example n through Validate, Plan and every Step and
// returns its files. Results are cached: the runners are deterministic.
func (d *Definition) ExampleOutputs(ctx context.Context, n int) ([]Output, error) {
	if n < 0 || n >= len(d.Examples) {
		return nil, fmt.Errorf("tasks: %s has no example %d", d.Name, n)
	}
	d.exMu.Lock()
	defer d.exMu.Unlock()
	if out, ok := d.exFiles[n]; ok {
		return out, nil
	}
	in, err := d.Validate(d.Examples[n].Input)
	if err != nil {
		return nil, fmt.Errorf("tasks: example %s of %s: %w", d.Examples[n].Name, d.Name, err)
	}
	files := fixtureLoader{}
	for _, f := range d.Examples[n].Files {
		files[f.Ref] = f.Data()
	}
	ctx = WithLoader(ctx, files)
	var out []Output
	for i := range d.Runner.Plan(in).Steps {
		o, err := d.Runner.Step(ctx, in, i)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if d.exFiles == nil {
		d.exFiles = map[int][]Output{}
	}
	d.exFiles[n] = out
	return out, nil
}

// ExampleFilePrefix starts the handles of the files examples send
// (file:example_…). They name no upload: any caller may send them, and a
// job reads the bytes the catalogue serves for them.
const ExampleFilePrefix = "file:example_"

// ExampleArtPrefix starts the handles of example files that stand for a
// file a job delivered (art:example_…, a shot photoshoot.upscale enlarges):
// like ExampleFilePrefix's, any caller may send them.
const ExampleArtPrefix = "art:example_"
