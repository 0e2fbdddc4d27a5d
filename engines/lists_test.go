package engines_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/tasks"
)

// variants is a declared task on the sdxl engine whose predictions each
// answer per files (nil: not said), count predictions a job.
func variants(per any) func(*engines.Config) {
	return func(c *engines.Config) {
		tc := c.Tasks[0]
		tc.Name, tc.FilesPerPrediction = "image.sdxl_variants", per
		tc.InputSchema = cloneMap(tc.InputSchema)
		props := cloneMap(tc.InputSchema["properties"].(map[string]any))
		props["n"] = map[string]any{"type": "integer", "minimum": 1, "maximum": 4, "default": 3,
			"description": "Files in each prediction."}
		tc.InputSchema["properties"] = props
		tc.Input = cloneMap(tc.Input)
		tc.Input["num_outputs"] = "$n"
		c.Tasks = append(c.Tasks, tc)
	}
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// group runs the first step of a job of d, as a worker runs it: the
// outputs of its one prediction.
func group(t *testing.T, d *tasks.Definition, body string) (tasks.Plan, []tasks.Output, error) {
	t.Helper()
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	plan := d.Runner.Plan(in)
	outs, err := d.Runner.(tasks.GroupRunner).StepGroup(context.Background(), in, 0, max(plan.PerStep, 1))
	return plan, outs, err
}

func TestAListModelWithoutAFileCountIsRefusedAloneAtStartUp(t *testing.T) {
	srv := fake(t, cogtest.Options{Files: 3, Run: 0})
	r, logs := assemble(t, example(t, srv.URL, variants(3)), clients(false))
	refused := logs.FilterMessage("task refused: it does not pass the start-up checks and is not served")
	require.Equal(t, 1, refused.Len(), "the task that does not say how many files, with the reason")
	require.Equal(t, "image.generate_sdxl", refused.All()[0].ContextMap()["task"])
	require.Contains(t, refused.All()[0].ContextMap()["error"], "files_per_prediction")
	_, err := r.Lookup("image.generate_sdxl")
	require.Equal(t, apierr.TaskNotFound, apierr.As(err).Code)
	routes := logs.FilterMessage("route refused: the task stays on its built-in engine")
	require.Equal(t, 1, routes.Len(), "the route on the same model, too")
	d, err := r.Lookup("image.sdxl_variants")
	require.NoError(t, err, "the task that says how many is served on the same engine")
	require.Implements(t, (*tasks.GroupRunner)(nil), d.Runner)

	t.Run("a file count on a model of one file is refused", func(t *testing.T) {
		one := fake(t, cogtest.Options{})
		_, logs := assemble(t, example(t, one.URL, variants(3)), clients(false))
		refused := logs.FilterMessage("task refused: it does not pass the start-up checks and is not served")
		require.Equal(t, 1, refused.Len())
		require.Contains(t, refused.All()[0].ContextMap()["error"], "the model answers one file")
	})
	t.Run("a count of files that no input field gives is refused", func(t *testing.T) {
		_, logs := assemble(t, example(t, srv.URL, variants("$seed")), clients(false))
		refused := logs.FilterMessage("task refused: it does not pass the start-up checks and is not served")
		require.Equal(t, 2, refused.Len())
		require.Contains(t, refused.All()[1].ContextMap()["error"], "maximum of at most 16")
	})
}

func TestAModelThatAnswersNoFilesIsRefusedAtStartUp(t *testing.T) {
	// Real Cog v0.16.12, a predictor "-> List[str]": its Output is an array
	// of strings (no "format": "uri"); a task on it was served and every job
	// failed "the model could not make it" after holding its credits.
	srv := fake(t, cogtest.Options{Strings: 3})
	r, logs := assemble(t, example(t, srv.URL, variants(3)), clients(false))
	refused := logs.FilterMessage("task refused: it does not pass the start-up checks and is not served")
	require.Equal(t, 2, refused.Len(), "both tasks on the model, the one that says a file count too")
	for _, e := range refused.All() {
		require.Contains(t, e.ContextMap()["error"], "the model does not answer files")
		require.Contains(t, e.ContextMap()["error"], "its Output is an array of string")
	}
	for _, name := range []string{"image.generate_sdxl", "image.sdxl_variants"} {
		_, err := r.Lookup(name)
		require.Equal(t, apierr.TaskNotFound, apierr.As(err).Code, name)
	}
	require.Equal(t, 1, logs.FilterMessage("route refused: the task stays on its built-in engine").Len(),
		"the built-in task routed to it stays on its own engine")
}

func TestEachFileOfAPredictionIsAnOutputPlannedAndPricedAsSuch(t *testing.T) {
	srv := fake(t, cogtest.Options{Files: 3})
	r, _ := assemble(t, example(t, srv.URL, variants("$n")), clients(false))
	d, err := r.Lookup("image.sdxl_variants")
	require.NoError(t, err)
	in, err := d.Validate([]byte(`{"prompt":"a shirt","count":2,"n":3}`))
	require.NoError(t, err)
	plan := d.Runner.Plan(in)
	require.Equal(t, 6, plan.Steps, "2 predictions × 3 files")
	require.Equal(t, 3, plan.PerStep)
	credits, _ := d.Estimate(in)
	require.EqualValues(t, 6*4, credits, "held as 6 outputs of 4 credits")
	require.Contains(t, d.Docs.Outputs.Count, "× n (1 to 4)")
	require.Contains(t, d.Docs.Outputs.CountDependsOn, "n")

	outs, err := d.Runner.(tasks.GroupRunner).StepGroup(context.Background(), in, 3, 3)
	require.NoError(t, err)
	require.Len(t, outs, 3, "the second prediction's three files")
	seen := map[string]bool{}
	for k, o := range outs {
		require.Equal(t, "image/png", o.MediaType)
		require.Equal(t, 3+k, o.Meta["index"], "each output's own index, in order")
		seen[string(o.Data)] = true
	}
	require.Len(t, seen, 3, "three different files, none dropped")
	require.Len(t, srv.Inputs(), 1, "one prediction")
	require.EqualValues(t, 3, srv.Inputs()[0]["num_outputs"])
	require.EqualValues(t, 1, srv.Inputs()[0]["seed"], "the model's $index is the prediction's: seed + 1")

	out, err := d.Runner.Step(context.Background(), in, 4)
	require.NoError(t, err, "one output alone is the file of its prediction")
	require.Equal(t, outs[1].Data, out.Data)
}

func TestAPredictionOfOtherThanTheDeclaredFilesIsNeverASilentDrop(t *testing.T) {
	srv := fake(t, cogtest.Options{Files: 3})
	r, _ := assemble(t, example(t, srv.URL, variants(3)), clients(false))
	d, err := r.Lookup("image.sdxl_variants")
	require.NoError(t, err)

	srv.Files(2)
	_, outs, err := group(t, d, `{"prompt":"a shirt"}`)
	require.Len(t, outs, 2, "fewer: those it answered are delivered")
	var se *tasks.StepError
	require.ErrorAs(t, err, &se, "and the rest are not, with the reason")
	require.Equal(t, string(apierr.ProcessingFailed), se.Code)
	require.Equal(t, "the model answered 2 of the 3 files its prediction delivers for this task", se.Message)

	srv.Files(5)
	_, outs, err = group(t, d, `{"prompt":"a shirt"}`)
	require.Empty(t, outs, "more: none delivered, none charged")
	require.ErrorAs(t, err, &se)
	require.Equal(t, "the model answered 5 files, more than the 3 each of its predictions delivers for this task",
		se.Message)
	require.ErrorContains(t, se.Err, "set it to what the model answers", "the operator reads what to change")

	t.Run("a list answered where one file was declared fails the step", func(t *testing.T) {
		late := fake(t, cogtest.Options{})
		r, _ := assemble(t, example(t, late.URL, nil), clients(false))
		d, err := r.Lookup("image.generate_sdxl")
		require.NoError(t, err)
		late.Files(2)
		_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
		require.ErrorAs(t, err, &se)
		require.Contains(t, se.Message, "more than the 1")
	})
}

// squarePNG is a w × h PNG of one grey.
func squarePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

func TestAnOutputIsCheckedAgainstTheSizeItsDataStates(t *testing.T) {
	body := `{"kind":"stripes","colors":["#1F3A5F","#F2C14E"],"seed":3,"resolution":"512"}`
	for _, tc := range []struct {
		name string
		w, h int
		want string // the reason it is refused, "" for delivered
	}{
		{"the size its resolution says", 512, 512, ""},
		{"a smaller image", 256, 256, "the model answered a 256 × 256 image where this output is 512 × 512"},
		{"not square", 512, 384, "the model answered a 512 × 384 image where this output is 512 × 512"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := squarePNG(t, tc.w, tc.h)
			srv := fake(t, cogtest.Options{Output: func(map[string]any) []byte { return data }})
			r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				b := c.Routes["pattern.generate"]
				b.Meta = cloneMap(b.Meta)
				b.Meta["width"], b.Meta["height"] = "$output.width", "$output.height"
				c.Routes["pattern.generate"] = b
			}), clients(false))
			d, err := r.Lookup("pattern.generate")
			require.NoError(t, err)
			out, err := step(t, d, body, 0)
			if tc.want == "" {
				require.NoError(t, err)
				require.Equal(t, 512, out.Meta["width"])
				return
			}
			var se *tasks.StepError
			require.ErrorAs(t, err, &se, "refused: not stored, not charged")
			require.Equal(t, string(apierr.ProcessingFailed), se.Code)
			require.Equal(t, tc.want, se.Message)
		})
	}
	t.Run("stated width and height", func(t *testing.T) {
		data := squarePNG(t, 64, 64)
		srv := fake(t, cogtest.Options{Output: func(map[string]any) []byte { return data }})
		r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
			b := c.Routes["pattern.generate"]
			b.Meta = cloneMap(b.Meta)
			b.Meta["width"], b.Meta["height"], b.Meta["resolution"] = 1024, 1024, "1024"
			c.Routes["pattern.generate"] = b
		}), clients(false))
		d, err := r.Lookup("pattern.generate")
		require.NoError(t, err)
		_, err = step(t, d, body, 0)
		var se *tasks.StepError
		require.ErrorAs(t, err, &se)
		require.Equal(t, "the model answered a 64 × 64 image where this output is 1024 × 1024", se.Message)
	})
}

// garbagePNG is a PNG signature and header for a 512 × 512 image
// followed by size bytes that are no image data: it reads as image/png
// and decodes to nothing.
func garbagePNG(size int) []byte {
	full := make([]byte, size)
	copy(full, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x02\x00\x00\x00\x02\x00\x08\x02\x00\x00\x00"))
	for i := 40; i < size; i++ {
		full[i] = byte(i * 31)
	}
	return full
}

func TestAGarbageOutputIsRefusedNotDelivered(t *testing.T) {
	data := garbagePNG(60 << 20)
	srv := fake(t, cogtest.Options{Output: func(map[string]any) []byte { return data }})
	r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
		e := mode(c.Engines["sdxl"], "sync")
		e.MaxBytes = 64 << 20
		c.Engines["sdxl"] = e
	}), clients(false))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "the model answered an image the service cannot read", se.Message)
	require.ErrorContains(t, se.Err, "62914560 bytes", "the operator reads what the model answered")
}
