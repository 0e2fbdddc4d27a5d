package pattern

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowsDrawIndex checks every pixel of rendered tiles against index, the
// per-pixel definition: every kind, stripe angle and colour count, sizes
// whose cells do and do not fall on whole pixels, and a few seeds and
// repeat counts, amplitudes and dot sizes.
func TestRowsDrawIndex(t *testing.T) {
	colours := []string{"#111111", "#EEEEEE", "#C8102E", "#1C2E5A", "#E8C547"}
	for _, k := range kinds {
		for _, n := range []int{1, 2, 3, 5} {
			if n > 3 && slices.Contains(wovenKinds, k.value) {
				continue
			}
			for i, extra := range []string{`"resolution":"512","seed":3`, `"resolution":"512","seed":9,"repeats":7`,
				`"resolution":"1024","seed":77,"repeats":13`, `"resolution":"512","seed":5,"repeats":3`} {
				in := fmt.Sprintf(`{"kind":%q,"colors":%s,%s}`, k.value, jsonList(colours[:n]), extra)
				s := newSpec(generateIn(t, in), 0)
				s.angle = []int{0, 45, 90, 135}[i]
				s.amp, s.dotSize = []float64{0.5, 0.1, 1, 0.73}[i], []float64{0.5, 0.1, 0.9, 0.37}[i]
				img, err := s.render(context.Background())
				require.NoError(t, err)
				for y := range s.size {
					for x := range s.size {
						if s.index(x, y) != img.Pix[y*img.Stride+x] {
							require.Equal(t, s.index(x, y), img.Pix[y*img.Stride+x], "%s: pixel (%d, %d)", in, x, y)
						}
					}
				}
			}
		}
	}
}

// BenchmarkRender draws a 1024 px tile of every kind.
func BenchmarkRender(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.value, func(b *testing.B) {
			s := newSpec(
				generateIn(
					b,
					fmt.Sprintf(
						`{"kind":%q,"colors":["#111111","#EEEEEE","#C8102E"],"resolution":"1024","seed":4}`,
						k.value,
					),
				),
				0,
			)
			for b.Loop() {
				_, _ = s.render(context.Background())
			}
		})
	}
}
