package records

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCollageKeepsEveryImagesProportions lays out boards of known
// proportions: each image's cell has its own proportion (to 1%, or its
// clamp to 2.5:1), every row but the last fills the width, and a short last
// row keeps the rows' height and is centred, not stretched.
func TestCollageKeepsEveryImagesProportions(t *testing.T) {
	for _, aspects := range [][]float64{
		{1, 1, 1},
		{1.5, 0.667, 1, 1, 1.777, 0.75, 1},
		{0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 1.5},
		{4, 0.2, 1, 1.333},
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
	} {
		t.Run(fmt.Sprint(len(aspects)), func(t *testing.T) {
			cells, h := justify(aspects, collageWidth, collageGutter, collageRow)
			require.Len(t, cells, len(aspects))
			rows := map[int][]image.Rectangle{}
			var ys []int
			for i, c := range cells {
				want := clampAspect(aspects[i])
				got := float64(c.Dx()) / float64(c.Dy())
				require.InDelta(t, want, got, math.Max(0.01*want, 2.0/float64(c.Dy())), "image %d", i)
				require.GreaterOrEqual(t, c.Min.X, collageGutter, "inside the margin")
				require.LessOrEqual(t, c.Max.X, collageWidth-collageGutter)
				require.LessOrEqual(t, c.Max.Y, h)
				if _, ok := rows[c.Min.Y]; !ok {
					ys = append(ys, c.Min.Y)
				}
				rows[c.Min.Y] = append(rows[c.Min.Y], c)
			}
			for i, y := range ys {
				row := rows[y]
				right := row[len(row)-1].Max.X
				if i < len(ys)-1 {
					require.Equal(t, collageWidth-collageGutter, right, "a full row fills the width")
					require.LessOrEqual(t, row[0].Dy(), collageRow)
					continue
				}
				require.LessOrEqual(t, row[0].Dy(), collageRow, "the last row is never taller than the rows")
				left := row[0].Min.X
				require.InDelta(t, left, collageWidth-right, 2, "a short last row is centred")
			}
		})
	}
}
