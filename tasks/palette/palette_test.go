package palette

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

func TestHarmonies(t *testing.T) {
	tests := []struct {
		scheme, base string
		want         []string
	}{
		{"complementary", "#FF0000", []string{"#FF0000", "#00FFFF"}},
		{"triadic", "#FF0000", []string{"#FF0000", "#00FF00", "#0000FF"}},
		{"tetradic", "#FF0000", []string{"#FF0000", "#80FF00", "#00FFFF", "#8000FF"}},
		{"analogous", "#FF0000", []string{"#FF0080", "#FF0000", "#FF8000"}},
		{"split_complementary", "#FF0000", []string{"#FF0000", "#00FF80", "#0080FF"}},
	}
	for _, tc := range tests {
		t.Run(tc.scheme, func(t *testing.T) {
			sc, ok := schemeByValue(tc.scheme)
			require.True(t, ok)
			var got []string
			for _, s := range harmony(sc, tc.base) {
				got = append(got, s.hex)
				require.False(t, s.adjusted)
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
	in, err := d.Validate([]byte(`{"base_color":"#808080","schemes":["triadic","complementary","monochromatic"],"shades":3}`))
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
	o, err := d.Runner.Step(context.Background(), map[string]any{"base_color": "#1F6FEB", "schemes": []any{"triadic"}, "labels": false}, 0)
	require.NoError(t, err)
	require.False(t, strings.Contains(string(o.Data), "<text"))
}
