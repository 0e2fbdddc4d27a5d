package palette

import (
	"context"
	"encoding/xml"
	"image/color"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

func TestHarmonies(t *testing.T) {
	tests := []struct {
		scheme, base string
		want         []string
	}{
		{"complementary", "#FF0000", []string{"#FF0000", "#009AAC"}},
		{"triadic", "#FF0000", []string{"#FF0000", "#00A447", "#597BFF"}},
		{"tetradic", "#FF0000", []string{"#FF0000", "#7F9400", "#009AAC", "#A058FF"}},
		{"analogous", "#FF0000", []string{"#F40084", "#FF0000", "#C86E00"}},
		{"split_complementary", "#FF0000", []string{"#FF0000", "#009F8A", "#0092D4"}},
	}
	for _, tc := range tests {
		t.Run(tc.scheme, func(t *testing.T) {
			sc, ok := schemeByValue(tc.scheme)
			require.True(t, ok)
			var got []string
			for _, s := range harmony(sc, tc.base) {
				got = append(got, s.hex)
				require.False(t, s.adjusted)
				// Turned in OKLCH, every colour keeps the base's perceptual
				// lightness (HSL turns gave pure green and blue, L 0.87 and 0.45).
				require.InDelta(t, hexToOKLCH(tc.base).l, hexToOKLCH(s.hex).l, 0.01, s.hex)
			}
			require.Equal(t, tc.want, got)
		})
	}
	for _, hex := range []string{"#000000", "#FFFFFF", "#1F6FEB", "#808080", "#FAFAFA"} {
		require.Equal(t, hex, toHex(toHSL(hex)))
	}
}

func TestPaletteSheetsAndWarnings(t *testing.T) {
	d := mustLookup(t, "palette.generate")
	in, err := d.Validate(
		[]byte(`{"base_color":"#808080","schemes":["triadic","complementary","monochromatic"],"shades":3}`),
	)
	require.NoError(t, err)
	require.Equal(t, 3, d.Runner.Plan(in).Steps)
	var warned []string
	for i, scheme := range []string{"triadic", "complementary", "monochromatic"} {
		o, err := d.Runner.Step(context.Background(), in, i)
		require.NoError(t, err)
		require.Equal(t, "image/svg+xml", o.MediaType)
		require.Equal(t, scheme, o.Meta["scheme"])
		require.NoError(t, xml.Unmarshal(o.Data, new(struct{ XMLName xml.Name })), "the sheet is well-formed XML")
		colours := o.Meta["colors"].([]any)
		seen := map[string]bool{}
		for _, c := range colours {
			hex := c.(map[string]any)["hex"].(string)
			require.False(t, seen[hex], "colours of a sheet stay distinct")
			seen[hex] = true
			require.Contains(t, string(o.Data), hex)
			require.Len(t, c.(map[string]any)["shades"], 3)
		}
		for _, w := range o.Warnings {
			require.Equal(t, string(apierr.ColourAdjusted), w.Code)
			warned = append(warned, *w.Field)
		}
	}
	// A grey's triad and complement are the same grey: both are adjusted.
	require.Contains(t, warned, "schemes[0]")
	require.Contains(t, warned, "schemes[1]")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = d.Runner.Step(ctx, in, 0)
	require.ErrorIs(t, err, context.Canceled)
	o, err := d.Runner.Step(
		context.Background(),
		taskstest.Input(t, d, map[string]any{"base_color": "#1F6FEB", "schemes": []any{"triadic"}, "labels": false}),
		0,
	)
	require.NoError(t, err)
	require.False(t, strings.Contains(string(o.Data), "<text"))
}

// TestBaseColourIsKeptExactly sends bases of every kind — very light, very
// dark, saturated, grey, off-grid — and checks every scheme's sheet holds
// the base hex exactly and that its colours stay distinct.
func TestBaseColourIsKeptExactly(t *testing.T) {
	bases := []string{"#000000", "#FFFFFF", "#FAFAFA", "#050505", "#808080", "#7F7F80", "#FF0000", "#00FF00",
		"#0000FF", "#FFFF00", "#1F6FEB", "#C0FFEE", "#123456", "#FDF6E3", "#0B0C0D", "#E4572E", "#76B041",
		"#F3E9D2", "#2D3142", "#FFB4A2", "#6D597A", "#B5838D", "#A3B18A", "#3A5A40", "#D4A373", "#ABCDEF",
		"#fedcba", "#010203", "#FEFDFC", "#7C9CBF"}
	d := mustLookup(t, "palette.generate")
	var all []any
	for _, s := range schemes {
		all = append(all, s.value)
	}
	for _, base := range bases {
		t.Run(base, func(t *testing.T) {
			in := taskstest.Input(t, d, map[string]any{"base_color": base, "schemes": all, "shades": 0, "labels": true})
			for i := range all {
				o, err := d.Runner.Step(context.Background(), in, i)
				require.NoError(t, err)
				var hexes []string
				for _, c := range o.Meta["colors"].([]any) {
					hexes = append(hexes, c.(map[string]any)["hex"].(string))
				}
				require.Contains(t, hexes, strings.ToUpper(base), "the %s sheet keeps the base exactly", all[i])
				for a := range hexes {
					for b := range a {
						require.False(
							t,
							tooClose(hexes[a], hexes[b]),
							"%s sheet: %s and %s are too close",
							all[i],
							hexes[a],
							hexes[b],
						)
					}
				}
			}
		})
	}
}

// TestTintsAreLighterAndShadesDarker checks the monochromatic roles say
// what the colours are, even for bases at the ends of the lightness scale.
func TestTintsAreLighterAndShadesDarker(t *testing.T) {
	sc, ok := schemeByValue("monochromatic")
	require.True(t, ok)
	lum := func(hex string) float64 {
		c := tasks.ParseColour(hex)
		return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	}
	for _, base := range []string{"#FFFFFF", "#FAFAFA", "#000000", "#050505", "#1F6FEB", "#FFFF00", "#808080"} {
		sw := harmony(sc, base)
		for _, s := range sw {
			switch {
			case strings.HasPrefix(s.role, "tint_"):
				require.Greater(t, lum(s.hex), lum(base), "%s: %s %s is a tint, so lighter", base, s.role, s.hex)
			case strings.HasPrefix(s.role, "shade_"):
				require.Less(t, lum(s.hex), lum(base), "%s: %s %s is a shade, so darker", base, s.role, s.hex)
			default:
				require.Equal(t, "base", s.role)
				require.Equal(t, base, s.hex)
			}
		}
	}
}

// TestShadeRowsAreLetDown checks the shades rows under vivid colours: the
// lighter steps are lighter and the darker darker in OKLCH, and no step is
// more saturated (higher OKLCH chroma) than the colour it steps from.
func TestShadeRowsAreLetDown(t *testing.T) {
	d := mustLookup(t, "palette.generate")
	for _, base := range []string{"#FF0000", "#1F6FEB", "#00FF00", "#FFFF00", "#3A5A40"} {
		in := taskstest.Input(t, d, map[string]any{"base_color": base, "schemes": []any{"triadic", "tetradic"},
			"shades": 4, "labels": true})
		for i := range 2 {
			o, err := d.Runner.Step(context.Background(), in, i)
			require.NoError(t, err)
			for _, c := range o.Meta["colors"].([]any) {
				c := c.(map[string]any)
				col := hexToOKLCH(c["hex"].(string))
				for j, s := range c["shades"].([]string) {
					step := hexToOKLCH(s)
					require.LessOrEqual(t, step.c, col.c+0.005, "%s: step %d %s of %s", base, j, s, c["hex"])
					if j < 2 {
						require.Greater(t, step.l, col.l, "%s: step %d %s is lighter", base, j, s)
					} else {
						require.Less(t, step.l, col.l, "%s: step %d %s is darker", base, j, s)
					}
				}
			}
		}
	}
}

// TestHarmoniesAreNoMoreSaturatedThanTheBase: a harmony turns the hue at
// the base's lightness and chroma and only lowers chroma to stay in sRGB,
// so no colour of a sheet (adjusted or not) is more chromatic in OKLCH (beyond
// 8-bit rounding) than the base: a muted base gives a muted palette.
func TestHarmoniesAreNoMoreSaturatedThanTheBase(t *testing.T) {
	bases := []string{"#3A5A40", "#B5838D", "#1F6FEB", "#E4572E", "#FF0000", "#808080", "#D4A373", "#6D597A",
		"#A3B18A", "#2D3142", "#FFB4A2", "#C0FFEE"}
	for _, base := range bases {
		b := hexToOKLCH(base)
		for _, sc := range schemes {
			for _, s := range harmony(sc, base) {
				require.LessOrEqual(t, hexToOKLCH(s.hex).c, b.c+0.005, "%s %s: %s %s", base, sc.value, s.role, s.hex)
			}
		}
	}
}

// TestLightSwatchesAreOutlined: on a monochromatic sheet of #FFFFFF every
// swatch and shade light enough to vanish on the white sheet is outlined,
// and on a navy sheet the dark base is not.
func TestLightSwatchesAreOutlined(t *testing.T) {
	outlined := func(svg, hex string) bool {
		cell := `width="128" height="128" fill="` + hex + `"/>`
		i := strings.Index(svg, cell)
		require.GreaterOrEqual(t, i, 0, hex)
		rest := svg[i+len(cell):]
		return strings.HasPrefix(rest, `<rect`) && strings.Contains(rest[:strings.Index(rest, "/>")], `stroke=`)
	}
	mono, ok := schemeByValue("monochromatic")
	require.True(t, ok)
	white := harmony(mono, "#FFFFFF")
	svg := string(paletteSVG("white", white, nil, true))
	for _, s := range white {
		c := color.RGBAModel.Convert(tasks.ParseColour(s.hex)).(color.RGBA)
		require.Equal(t, pdfsheet.Light(c), outlined(svg, s.hex), "%s %s", s.role, s.hex)
	}
	require.True(t, outlined(svg, "#FFFFFF"), "the white base is outlined")
	navy := harmony(mono, "#1B2A4A")
	svg = string(paletteSVG("navy", navy, nil, true))
	require.False(t, outlined(svg, "#1B2A4A"))
}
