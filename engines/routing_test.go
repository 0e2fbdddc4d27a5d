package engines_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
	"github.com/taskplatform/taskplatform/testenv"
)

// packshot is a 96 × 96 PNG: a dark red box on a plain light grey backdrop
// (busy false), or on one whose lower half is striped with noisy blue, a
// scene no backdrop model fits (busy true).
func packshot(t *testing.T, busy bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 96, 96))
	rng := rand.New(rand.NewPCG(1, 2))
	for y := range 96 {
		for x := range 96 {
			c := color.RGBA{230, 230, 230, 255}
			if busy && y >= 40 && (x/6)%2 == 0 {
				c = color.RGBA{uint8(40 + rng.IntN(40)), 90, 160, 255} // a striped, noisy half: a scene
			}
			if x >= 30 && x < 66 && y >= 24 && y < 72 {
				c = color.RGBA{150, 20, 30, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// fallbackRoute is cutoutRoute with a fallback under below.
func fallbackRoute(url string, below float64) *engines.Config {
	cfg := cutoutRoute(url, nil)
	b := cfg.Routes["image.remove_background"]
	b.Fallback = &engines.Fallback{Below: below}
	cfg.Routes["image.remove_background"] = b
	return cfg
}

// TestAFallbackRouteKeepsPlainPackshotsBuiltIn: a plain packshot is cut out
// by the built-in step (no prediction, no engine in its data); a busy one,
// which the built-in step refuses (confidence under 0.8), is handed off,
// and the engine's step delivers the model's pixels with the engine named.
func TestAFallbackRouteKeepsPlainPackshotsBuiltIn(t *testing.T) {
	srv := fake(t, cogtest.Options{Output: inverting(t)})
	r, logs := assemble(t, fallbackRoute(srv.URL, 0.9), clients(false))
	require.Zero(t, logs.FilterMessageSnippet("refused").Len(), logs.All())
	d, err := r.Lookup("image.remove_background")
	require.NoError(t, err)
	plain, busy := packshot(t, false), packshot(t, true)
	ctx := tasks.WithLoader(context.Background(), taskstest.Files{"file:plain": plain, "file:busy": busy})
	in, err := d.Validate([]byte(`{"images":["file:plain","file:busy"]}`))
	require.NoError(t, err)
	p := d.Runner.Plan(in)
	require.Equal(t, "", p.Engine, "the steps run on the built-in queue")
	require.Equal(t, "cut", p.Fallback)
	require.Contains(t, strings.Join(d.Docs.Limitations, " "), "under 0.9 (or that the built-in step refuses for it) "+
		"is made by the operator's engine cut", "the served page says where the hard outputs go")

	out, err := d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	require.GreaterOrEqual(t, out.Meta["confidence"], 0.9)
	require.NotContains(t, out.Meta, "engine")
	require.Empty(t, out.Engine)
	img, err := png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Equal(t, uint32(0), alphaAt(img, 2, 2), "the built-in cut-out: the backdrop is transparent")
	require.Empty(t, srv.Inputs(), "no prediction for a plain packshot")

	_, err = d.Runner.Step(ctx, in, 1)
	var h *tasks.HandOff
	require.ErrorAs(t, err, &h)
	require.Contains(t, h.Reason, "under 0.9")
	require.Empty(t, srv.Inputs(), "the built-in step never calls the model")

	out, err = d.Runner.Step(tasks.WithOnEngine(ctx), in, 1)
	require.NoError(t, err)
	require.Equal(t, "cut", out.Engine)
	require.Equal(t, "cut", out.Meta["engine"], "the output's data says which engine made it")
	img, err = png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	want, err := png.Decode(bytes.NewReader(busy))
	require.NoError(t, err)
	r0, g0, b0, _ := want.At(40, 30).RGBA()
	require.Equal(t, color.RGBA{255 - uint8(r0>>8), 255 - uint8(g0>>8), 255 - uint8(b0>>8), 255},
		color.RGBAModel.Convert(img.At(40, 30)), "the model's pixels: the busy shot inverted")
	require.Len(t, srv.Inputs(), 1)
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(busy), srv.Inputs()[0]["image"])
}

// TestAFallbackIsCheckedAtStartUp: a threshold outside (0, 1], or a field
// that is not a number of the output data, refuses the route.
func TestAFallbackIsCheckedAtStartUp(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	for _, below := range []float64{0, -0.5, 1.5} {
		_, logs := assemble(t, fallbackRoute(srv.URL, below), clients(false))
		require.Equal(t, 1, logs.FilterMessageSnippet("route refused").Len(), "below %g", below)
	}
	cfg := fallbackRoute(srv.URL, 0.9)
	b := cfg.Routes["image.remove_background"]
	b.Fallback.Field = "background" // a string, not a confidence
	cfg.Routes["image.remove_background"] = b
	_, logs := assemble(t, cfg, clients(false))
	require.Equal(t, 1, logs.FilterMessageSnippet("route refused").Len())
}

func alphaAt(img image.Image, x, y int) uint32 {
	_, _, _, a := img.At(x, y).RGBA()
	return a
}

// onModelRoute routes photoshoot.create's jobs with a model to an engine at
// url, handing it the model record's tones and first reference photo.
func onModelRoute(url string) *engines.Config {
	return &engines.Config{Engines: map[string]engines.EngineConfig{"tryon": {Protocol: "cog", URL: url}},
		Routes: map[string]engines.Binding{"photoshoot.create": {Engine: "tryon", Routing: engines.Routing{When: "model"},
			Input: engines.Mapping{"image": "$product", "skin": "$model.skin", "hair": "$model.hair",
				"reference": "$model.images[0]", "seed": "$index"},
			Meta: engines.Mapping{"photoshoot": nil, "index": "$index", "background": "$background",
				"marketplace": "$marketplace", "width": "$output.width", "height": "$output.height"}}}}
}

// TestPhotoshootWithAModelRunsOnTheOnModelEngine: without a route a model
// is refused at submit; with one, the job with a model plans on the
// engine, an unknown model is refused at submit, and each shot hands the
// model the garment and the record's tones and reference photo.
func TestPhotoshootWithAModelRunsOnTheOnModelEngine(t *testing.T) {
	srv := fake(t, cogtest.Options{Output: inverting(t)})
	body := []byte(`{"product":"file:shirt","model":"model:ms_anna"}`)

	plainReg, _ := assemble(t, nil, clients(false))
	plain, err := plainReg.Lookup("photoshoot.create")
	require.NoError(t, err)
	_, err = plain.Validate(body)
	var ae *apierr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apierr.RequestRefused, ae.Code, "no on-model engine: refused as before")

	r, logs := assemble(t, onModelRoute(srv.URL), clients(false))
	require.Zero(t, logs.FilterMessageSnippet("refused").Len(), logs.All())
	d, err := r.Lookup("photoshoot.create")
	require.NoError(t, err)
	in, err := d.Validate(body)
	require.NoError(t, err)
	require.Equal(t, "tryon", d.Runner.Plan(in).Engine)
	require.Contains(t, strings.Join(d.Docs.Limitations, " "), "the jobs with model run on the operator's engine tryon")
	require.NotContains(t, strings.Join(plain.Docs.Limitations, " "), "engine tryon")
	without, err := d.Validate([]byte(`{"product":"file:shirt"}`))
	require.NoError(t, err)
	require.Empty(t, d.Runner.Plan(without).Engine, "a packshot without a model stays built-in")

	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	now := time.Now()
	require.NoError(t, models.CreateRecord(ctx, db, &models.Record{ID: "ms_anna", Kind: "model", UserID: 7,
		Name: "Anna", Status: models.RecordReady,
		Fields: `{"base":"model:m_woman","skin":"#8D5524","hair":"#2B1B12","images":["file:face"]}`}, now))
	env := tasks.Env{UserID: 7, JobID: "j_1", DB: db, Now: func() time.Time { return now }}
	admit := d.Runner.(tasks.Admitter)
	require.NoError(t, admit.Admit(ctx, env, in))
	other, err := d.Validate([]byte(`{"product":"file:shirt","model":"model:ms_nobody"}`))
	require.NoError(t, err)
	err = admit.Admit(ctx, env, other)
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apierr.InvalidRequest, ae.Code)
	require.Equal(t, "model", *ae.Field)

	shirt, face := packshot(t, false), pngOf(t, color.RGBA{R: 200, G: 150, B: 120, A: 255})
	sctx := tasks.WithEnv(tasks.WithLoader(ctx, taskstest.Files{"file:shirt": shirt, "file:face": face}), env)
	out, err := d.Runner.Step(sctx, in, 0)
	require.NoError(t, err)
	require.Equal(t, "tryon", out.Meta["engine"])
	got := srv.Inputs()
	require.Len(t, got, 1)
	require.Equal(t, "#8D5524", got[0]["skin"])
	require.Equal(t, "#2B1B12", got[0]["hair"])
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(face), got[0]["reference"],
		"the record's reference photo, fetched by the service")
	require.Equal(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(shirt), got[0]["image"])
}
