package engines_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// pngOf is a 16 × 16 PNG of one colour.
func pngOf(t *testing.T, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// inverting is a model that inverts the image its input "image" carries as
// a data URI, as the harness's invert predictor does.
func inverting(t *testing.T) func(map[string]any) []byte {
	return func(in map[string]any) []byte {
		s, _ := in["image"].(string)
		_, b64, _ := strings.Cut(s, ";base64,")
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			return nil
		}
		out := image.NewRGBA(img.Bounds())
		for y := range img.Bounds().Dy() {
			for x := range img.Bounds().Dx() {
				r, g, b, a := img.At(x, y).RGBA()
				out.Set(x, y, color.RGBA{255 - uint8(r>>8), 255 - uint8(g>>8), 255 - uint8(b>>8), uint8(a >> 8)})
			}
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, out)
		return buf.Bytes()
	}
}

// cutoutRoute routes image.remove_background to an engine at url, one
// image of the list per prediction.
func cutoutRoute(url string, e func(*engines.EngineConfig)) *engines.Config {
	ec := engines.EngineConfig{Protocol: "cog", URL: url}
	if e != nil {
		e(&ec)
	}
	return &engines.Config{Engines: map[string]engines.EngineConfig{"cut": ec},
		Routes: map[string]engines.Binding{"image.remove_background": {Engine: "cut",
			Input: engines.Mapping{"image": "$images[$index]"},
			Meta: engines.Mapping{"index": "$index", "image": "$images[$index]", "width": "$output.width",
				"height": "$output.height", "format": "$output.format", "source_width": "$output.source_width",
				"source_height": "$output.source_height"}}}}
}

func TestARoutedTaskHandsTheModelTheCallersFileAndDeliversItsResult(t *testing.T) {
	srv := fake(t, cogtest.Options{Output: inverting(t)})
	r, logs := assemble(t, cutoutRoute(srv.URL, nil), clients(false))
	require.Zero(t, logs.FilterMessageSnippet("refused").Len(), logs.All())
	d, err := r.Lookup("image.remove_background")
	require.NoError(t, err)
	red, blue := pngOf(t, color.RGBA{R: 255, A: 255}), pngOf(t, color.RGBA{B: 255, A: 255})
	loader := &recording{files: taskstest.Files{"file:red": red, "https://shop.example/blue.png": blue}}
	ctx := tasks.WithLoader(context.Background(), loader)
	in, err := d.Validate([]byte(`{"images":["file:red","https://shop.example/blue.png"]}`))
	require.NoError(t, err)

	for i, want := range []color.RGBA{{G: 255, B: 255, A: 255}, {R: 255, G: 255, A: 255}} {
		out, err := d.Runner.Step(ctx, in, i)
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(out.Data))
		require.NoError(t, err)
		require.Equal(t, want, color.RGBAModel.Convert(img.At(1, 1)), "output %d is the model's inverted image", i)
		require.Equal(t, map[string]any{"index": i, "image": in.Fields["images"].([]any)[i], "width": 16, "height": 16,
			"format": "png", "source_width": 16, "source_height": 16}, out.Meta)
	}
	got := srv.Inputs()
	require.Len(t, got, 2)
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(red), got[0]["image"])
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(blue), got[1]["image"],
		"the service's copy of the caller's URL, never the URL")
	require.Equal(t, []string{"file:red", "https://shop.example/blue.png"}, loader.asked(),
		"both fetched by the service under its own rules")
}

func TestAFileTheServiceCannotFetchIsNeverSentToTheModel(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	r, _ := assemble(t, cutoutRoute(srv.URL, nil), clients(false))
	d, err := r.Lookup("image.remove_background")
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), taskstest.Files{})
	in, err := d.Validate([]byte(`{"images":["https://127.0.0.1:9/secret.png"]}`))
	require.NoError(t, err)
	_, err = d.Runner.Step(ctx, in, 0)
	require.Error(t, err)
	require.Empty(t, srv.Inputs(), "no prediction of a file the service did not fetch")
}

func TestInModeURLTheModelGetsASignedURLOfTheServicesCopy(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	r, _ := assemble(t, cutoutRoute(srv.URL, func(e *engines.EngineConfig) {
		e.Inputs, e.InputBaseURL = engines.InputsURL, "http://api.internal:8080/"
	}), clients(false))
	d, err := r.Lookup("image.remove_background")
	require.NoError(t, err)
	red := pngOf(t, color.RGBA{R: 255, A: 255})
	pub := &publisher{}
	ctx := engines.WithInputURLs(tasks.WithLoader(context.Background(), taskstest.Files{"file:red": red}), pub)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	in, err := d.Validate([]byte(`{"images":["file:red"]}`))
	require.NoError(t, err)
	_, err = d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	require.Equal(t, "http://api.internal:8080/files/engine/grant-1", srv.Inputs()[0]["image"])
	require.Equal(t, [][]byte{red}, pub.data)
	require.Equal(t, "image/png", pub.types[0])
	deadline, _ := ctx.Deadline()
	require.Equal(t, deadline, pub.expires[0], "the URL expires with the step")
}

func TestAnEngineWithUnknownInputsIsRefused(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	_, logs := assemble(t, cutoutRoute(srv.URL, func(e *engines.EngineConfig) { e.Inputs = "ftp" }), clients(false))
	require.Equal(t, 1, logs.FilterMessageSnippet("engine refused").Len())
}

func TestMappingReadsAListsElements(t *testing.T) {
	m := engines.Mapping{"first": "$images[0]", "this": "$images[$index]", "all": "$images", "none": "$images[5]"}
	got := m.Apply(map[string]any{"images": []any{"a", "b"}}, 1)
	require.Equal(t, map[string]any{"first": "a", "this": "b", "all": []any{"a", "b"}}, got)
	require.Equal(t, []string{"images"}, m.Fields())
}

// recording is a loader that notes the references it was asked for.
type recording struct {
	mu    sync.Mutex
	files taskstest.Files
	refs  []string
}

func (l *recording) Load(ctx context.Context, ref string) ([]byte, error) {
	l.mu.Lock()
	l.refs = append(l.refs, ref)
	l.mu.Unlock()
	return l.files.Load(ctx, ref)
}

func (l *recording) asked() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.refs...)
}

// publisher is an engines.InputURLs that notes what it published.
type publisher struct {
	mu      sync.Mutex
	data    [][]byte
	types   []string
	expires []time.Time
}

func (p *publisher) URL(_ context.Context, base string, data []byte, mt string, exp time.Time) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.data, p.types, p.expires = append(p.data, data), append(p.types, mt), append(p.expires, exp)
	return base + "/files/engine/grant-" + string(rune('0'+len(p.data))), nil
}

func TestADeclaredTaskHandsTheModelItsFileField(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	cfg := example(t, srv.URL, func(c *engines.Config) {
		tc := &c.Tasks[0]
		tc.InputSchema["properties"].(map[string]any)["image"] = map[string]any{"type": "string",
			"pattern": tasks.RefPattern, tasks.RefKeyword: true, "description": "An image to start from."}
		tc.Input["image"] = "$image"
	})
	r, logs := assemble(t, cfg, clients(false))
	require.Zero(t, logs.FilterMessageSnippet("refused").Len(), logs.All())
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	red := pngOf(t, color.RGBA{R: 255, A: 255})
	ctx := tasks.WithLoader(context.Background(), taskstest.Files{"file:red": red})
	in, err := d.Validate([]byte(`{"prompt":"a chair","image":"file:red"}`))
	require.NoError(t, err)
	_, err = d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(red), srv.Inputs()[0]["image"])
}
