package pattern

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// A known sett woven at a known scale: "K8 R40 K16 Y8" is symmetric, so
// one repeat is K8 R40 K16 Y8 K16 R40, 128 threads; two repeats on a
// 1024 px tile are exactly 4 px a thread. Each thread crossing shows the
// warp's colour where a 2/2 twill lifts it ((i + j) mod 4 < 2) and the
// weft's elsewhere: solid where warp and weft are one colour, a 2/2
// diagonal of both where they differ.
func TestSettIsWovenThreadByThread(t *testing.T) {
	colours := map[string]string{"K": "#111111", "R": "#C8102E", "Y": "#E8C547"}
	body := `{"kind":"plaid","colors":["#111111","#C8102E","#E8C547"],"sett":"K8 R40 K16 Y8","repeats":2,` +
		`"resolution":"1024","seed":5}`
	img, meta := tile(t, body)
	require.Equal(t, "K8 R40 K16 Y8", meta["sett"])
	require.Equal(t, 128, meta["sett_threads"])
	require.Equal(t, map[string]any{"K": "#111111", "R": "#C8102E", "Y": "#E8C547"}, meta["sett_colors"])
	require.Equal(t, 2, meta["repeats"])
	// The repeat as written out by hand: thread i's colour code.
	var code []string
	for _, st := range []struct {
		c string
		n int
	}{{"K", 8}, {"R", 40}, {"K", 16}, {"Y", 8}, {"K", 16}, {"R", 40}} {
		for range st.n {
			code = append(code, st.c)
		}
	}
	require.Len(t, code, 128)
	s := newSpec(generateIn(t, body), 0)
	wrong, mixed := 0, 0
	for tj := range 256 {
		for ti := range 256 {
			warp, weft := code[ti%128], code[tj%128]
			want := weft
			if (ti+tj)%4 < 2 {
				want = warp
			}
			if warp != weft {
				mixed++
			}
			// The middle of the thread crossing: 4 px a thread, the tile
			// shifted by the seed's phase.
			x, y := mod(4*ti+1-s.sx, 1024), mod(4*tj+2-s.sy, 1024)
			if img.NRGBAAt(x, y) != nrgba(colours[want]) {
				wrong++
			}
		}
	}
	require.Zero(t, wrong, "every crossing shows the thread on top")
	require.Greater(t, mixed, 10000, "the ground truth holds crossings of two colours")
	// Where the red warp stripe crosses the red weft stripe the cloth is
	// solid red; across the yellow weft it is half red, half yellow.
	red, yellow := 0, 0
	for tj := 64; tj < 72; tj++ { // Y weft
		for ti := 8; ti < 48; ti++ { // R warp
			switch img.NRGBAAt(mod(4*ti+1-s.sx, 1024), mod(4*tj+1-s.sy, 1024)) {
			case nrgba(colours["R"]):
				red++
			case nrgba(colours["Y"]):
				yellow++
			}
		}
	}
	require.Equal(t, 160, red)
	require.Equal(t, 160, yellow)
}

// A sett's notation, its pivots and asymmetric marks, and the colours it
// names are checked at submit, each with an error naming the stripe or the
// field at fault.
func TestSettErrorsAreClear(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, tc := range []struct {
		sett, colors, field, says string
		code                      apierr.Code
	}{
		{"K4 R24 X", `"#111111","#C8102E"`, "sett", `stripe 3, "X"`, apierr.InvalidRequest},
		{"K4 K24 Y4", `"#111111","#E8C547"`, "sett", "stripes 1 and 2 are both K", apierr.InvalidRequest},
		{"K4 R/24 Y4", `"#111111","#C8102E","#E8C547"`, "sett", "a slash marks a pivot", apierr.InvalidRequest},
		{"K4", `"#111111"`, "sett", "at least two stripes", apierr.InvalidRequest},
		{"K4 R0", `"#111111","#C8102E"`, "sett", "has no threads", apierr.InvalidRequest},
		{"K4 R24 K24 Y4", `"#111111","#C8102E"`, "colors", "names 3 colours (K, R, Y", apierr.RequestRefused},
		{"K300 R300", `"#111111","#C8102E"`, "sett", "600 threads a repeat", apierr.RequestRefused},
	} {
		body := `{"kind":"plaid","resolution":"512","sett":"` + tc.sett + `","colors":[` + tc.colors + `]}`
		_, err := d.Validate([]byte(body))
		var e *apierr.Error
		require.ErrorAs(t, err, &e, tc.sett)
		require.Equal(t, tc.code, e.Code, tc.sett)
		require.Contains(t, e.Message, tc.says, tc.sett)
		require.NotNil(t, e.Field, tc.sett)
		require.Equal(t, tc.field, *e.Field, tc.sett)
	}
	// Pivots marked with slashes, and an asymmetric sett.
	for _, tc := range []struct {
		sett  string
		woven int
	}{{"K/4 R24 K24 Y/4", 4 + 24 + 24 + 4 + 24 + 24}, {"...K4 R24 K24 Y4...", 56}} {
		st, e := parseSett(tc.sett)
		require.Nil(t, e, tc.sett)
		require.Len(t, st.threads(), tc.woven, tc.sett)
	}
	_, err := d.Validate([]byte(`{"kind":"stripes","colors":["#111111"],"sett":"K4 R4"}`))
	var e *apierr.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, apierr.FieldNotSupported, e.Code)
}
