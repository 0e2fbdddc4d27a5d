package pattern

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

func patternInput(t testing.TB, body string) tasks.Input {
	in, err := mustLookup(t, "pattern.generate").Validate([]byte(body))
	require.NoError(t, err)
	return in
}

// generateIn is a pattern.generate request as its runner reads it.
func generateIn(t testing.TB, body string) *generateInput {
	in := tasks.Arg[generateInput](patternInput(t, body))
	require.NotNil(t, in)
	return in
}

func TestPatternDeterministic(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, k := range kinds {
		t.Run(k.value, func(t *testing.T) {
			in := patternInput(
				t,
				`{"kind":"`+k.value+`","colors":["#1B2A4A","#F4F1EA","#C8102E"],"resolution":"512","seed":42,"count":2}`,
			)
			a, err := d.Runner.Step(context.Background(), in, 0)
			require.NoError(t, err)
			b, err := d.Runner.Step(
				context.Background(),
				patternInput(
					t,
					`{"kind":"`+k.value+`","colors":["#1B2A4A","#F4F1EA","#C8102E"],"resolution":"512","seed":42,"count":2}`,
				),
				0,
			)
			require.NoError(t, err)
			require.Equal(t, a.Data, b.Data, "same input and seed give the same bytes")
			c, err := d.Runner.Step(context.Background(), in, 1)
			require.NoError(t, err)
			require.NotEqual(t, a.Data, c.Data, "output 1 uses seed + 1")
			// Output 1 of seed 42 is output 0 of seed 43.
			e, err := d.Runner.Step(
				context.Background(),
				patternInput(
					t,
					`{"kind":"`+k.value+`","colors":["#1B2A4A","#F4F1EA","#C8102E"],"resolution":"512","seed":43}`,
				),
				0,
			)
			require.NoError(t, err)
			require.Equal(t, c.Data, e.Data)
			require.Equal(t, int64(43), c.Meta["seed"])
		})
	}
}

// TestPatternSeamless checks that the pattern function continues across the
// tile's edges: the pixel one tile to the right (x = width) is the pixel at
// x = 0, and likewise vertically, for every kind, colour count and a few
// seeds and repeat counts; and that the image is that function.
func TestPatternSeamless(t *testing.T) {
	colours := []string{"#111111", "#EEEEEE", "#C8102E", "#1C2E5A", "#E8C547", "#0B3D2E"}
	for _, k := range kinds {
		for n := 1; n <= 6; n++ {
			if n > 3 && slices.Contains(wovenKinds, k.value) {
				continue // refused: a woven check takes 1 to 3 colours
			}
			for _, extra := range []string{`"seed":0`, `"seed":9,"repeats":7`, `"seed":77,"repeats":32`} {
				t.Run(fmt.Sprintf("%s/%d/%s", k.value, n, extra), func(t *testing.T) {
					in := fmt.Sprintf(
						`{"kind":%q,"colors":%s,"resolution":"512",%s}`,
						k.value,
						jsonList(colours[:n]),
						extra,
					)
					s := newSpec(generateIn(t, in), 0)
					w := s.size
					for p := -1; p <= w; p++ {
						require.Equal(t, s.index(0, p), s.index(w, p), "left/right edge at y=%d", p)
						require.Equal(t, s.index(p, 0), s.index(p, w), "top/bottom edge at x=%d", p)
						require.Equal(t, s.index(-1, p), s.index(w-1, p))
					}
					img, err := s.render(context.Background())
					require.NoError(t, err)
					for p := 0; p < w; p += 7 {
						require.Equal(t, s.index(0, p), img.ColorIndexAt(0, p))
						require.Equal(t, s.index(w-1, p), img.ColorIndexAt(w-1, p))
						require.Equal(t, s.index(p, w-1), img.ColorIndexAt(p, w-1))
					}
				})
			}
		}
	}
}

func jsonList(s []string) string {
	var b bytes.Buffer
	b.WriteString("[")
	for i, x := range s {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q", x)
	}
	b.WriteString("]")
	return b.String()
}

func TestPatternPNG(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, res := range []string{"512", "1024"} {
		o, err := d.Runner.Step(
			context.Background(),
			patternInput(t, `{"kind":"checks","colors":["#FF0000"],"resolution":"`+res+`"}`),
			0,
		)
		require.NoError(t, err)
		require.Equal(t, "image/png", o.MediaType)
		require.Equal(t, "png", o.Ext)
		img, err := png.Decode(bytes.NewReader(o.Data))
		require.NoError(t, err)
		require.Equal(t, res, fmt.Sprint(img.Bounds().Dx()))
		require.Equal(t, img.Bounds().Dx(), img.Bounds().Dy())
		// One colour: the ground is transparent, the motif is the colour,
		// and an edge pixel is the colour at part coverage, never another.
		alphas := map[uint8]int{}
		for y := range img.Bounds().Dy() {
			for x := range img.Bounds().Dx() {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				alphas[c.A]++
				if c.A == 255 {
					require.Equal(t, color.NRGBA{0xff, 0, 0, 0xff}, c)
				} else if c.A > 0 {
					require.Equal(t, uint8(0xff), c.R, "(%d, %d): %v", x, y, c)
				}
			}
		}
		require.Greater(t, alphas[0], 1000)
		require.Greater(t, alphas[255], 1000)
		require.Equal(t, true, o.Meta["transparent_ground"])
	}
}

func TestPatternHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := mustLookup(
		t,
		"pattern.generate",
	).Runner.Step(
		ctx,
		patternInput(t, `{"colors":["#000000"],"resolution":"2048"}`),
		0,
	)
	require.ErrorIs(t, err, context.Canceled)
}

func TestPatternStripesDrawsPatternGenerate(t *testing.T) {
	old, cur := mustLookup(t, "pattern.stripes"), mustLookup(t, "pattern.generate")
	body := `{"colors":["#1B2A4A","#F4F1EA"],"stripe_angle":135,"resolution":"512","seed":4,"repeats":5}`
	in, err := old.Validate([]byte(body))
	require.NoError(t, err)
	a, err := old.Runner.Step(context.Background(), in, 0)
	require.NoError(t, err)
	b, err := cur.Runner.Step(context.Background(), patternInput(t, `{"kind":"stripes",`+body[1:]), 0)
	require.NoError(t, err)
	require.Equal(t, b.Data, a.Data)
	require.Equal(t, b.Meta, a.Meta)
}

func TestPatternKindsAreTheVocabulary(t *testing.T) {
	var values []string
	for _, k := range kinds {
		values = append(values, k.value)
	}
	require.Equal(t, kindVocab().Enum(), values)
	require.Len(t, values, 11)
}

func BenchmarkPattern2048(b *testing.B) {
	d := mustLookup(b, "pattern.generate")
	for _, k := range kinds {
		colours := `["#1B2A4A","#F4F1EA","#C8102E","#E8C547"]`
		if slices.Contains(wovenKinds, k.value) {
			colours = `["#1B2A4A","#F4F1EA","#C8102E"]`
		}
		in := patternInput(
			b,
			`{"kind":"`+k.value+`","colors":`+colours+`,"resolution":"2048","repeats":12}`,
		)
		b.Run(k.value, func(b *testing.B) {
			for range b.N {
				if _, err := d.Runner.Step(context.Background(), in, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDrawTakesTheDefaults checks that Draw, given only some fields, draws
// what a pattern.generate job of the same fields delivers: the fields it
// is not given take pattern.generate's defaults (dot_size for dots).
func TestDrawTakesTheDefaults(t *testing.T) {
	for _, body := range []string{
		`{"kind":"dots","colors":["#1B2A4A","#F4F1EA"],"resolution":"512"}`,
		`{"kind":"waves","colors":["#1B2A4A","#F4F1EA","#C8102E"],"resolution":"512","seed":5,"count":2}`,
	} {
		var in map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &in))
		for i := range 2 {
			got, err := Draw(context.Background(), in, i)
			require.NoError(t, err)
			want, err := mustLookup(t, "pattern.generate").Runner.Step(context.Background(), patternInput(t, body), i)
			require.NoError(t, err)
			require.Equal(t, want.Data, got.Data, body)
			require.Equal(t, want.Meta, got.Meta, body)
		}
	}
}

// TestQuickCountsTheSampledKindsEightTimes: a job runs inside its admit
// only when it draws within the quick budget — eight 512 px stripes tiles,
// but one 512 px dots tile, since every dot row is sampled.
func TestQuickCountsTheSampledKindsEightTimes(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, tc := range []struct {
		body  string
		quick bool
	}{
		{`{"colors":["#000000"],"resolution":"512","count":8}`, true},
		{`{"colors":["#000000"],"kind":"gingham","resolution":"1024","count":2}`, true},
		{`{"colors":["#000000"],"resolution":"1024","count":3}`, false},
		{`{"colors":["#000000"],"kind":"dots","resolution":"512"}`, true},
		{`{"colors":["#000000"],"kind":"dots","resolution":"512","count":2}`, false},
		{`{"colors":["#000000"],"kind":"plaid","resolution":"1024"}`, false},
	} {
		require.Equal(t, tc.quick, tasks.IsQuick(d, patternInput(t, tc.body)), tc.body)
	}
}
