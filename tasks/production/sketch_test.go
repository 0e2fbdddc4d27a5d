package production

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/records"
)

// TestCalloutsMeasureTheGarment traces product shots whose outlines are
// known (records.ProductShot draws them from a unit-square polygon) and
// checks each measurement line the sketch draws against the polygon: its
// length as a share of the shot's side, to 3%.
func TestCalloutsMeasureTheGarment(t *testing.T) {
	const side = 600
	for _, tc := range []struct {
		kind, point string
		want        float64 // the polygon's measure, a share of the side
	}{
		{"t_shirt", "Chest width", 0.48},
		{"t_shirt", "Body length", 0.90 - 0.14},
		{"t_shirt", "Hem width", 0.48},
		{"trousers", "Waist", 0.44},
		{"trousers", "Rise", 0.34 - 0.06},
		{"trousers", "Outseam", 0.94 - 0.06},
		{"dress", "Hem sweep", 0.60},
	} {
		t.Run(tc.kind+" "+tc.point, func(t *testing.T) {
			f := traceFlat(context.Background(), records.ProductShot(tc.kind, "#1B2A4A", "#FFFFFF", side))
			require.True(t, f.removed, "the white sweep is cut away")
			g, ok := readBody(f).callout(tc.point)
			require.True(t, ok, "%s is placed", tc.point)
			// The flat is traced at its own size, at most sketchSide px.
			got := math.Hypot(g.x2-g.x1, g.y2-g.y1) / float64(min(side, sketchSide))
			t.Logf("%s %s: %.3f of the side (polygon %.3f)", tc.kind, tc.point, got, tc.want)
			require.InDelta(t, tc.want, got, 0.03)
		})
	}
}

// TestCalloutsLeaveOtherPartsOff checks that a point naming a part the
// sketch cannot find (a fringe, a pocket, a hood) is not drawn at all,
// while the body's own points still are: "D Fringe length" was drawn over
// the whole garment as its length.
func TestCalloutsLeaveOtherPartsOff(t *testing.T) {
	f := traceFlat(context.Background(), records.ProductShot("t_shirt", "#1B2A4A", "#FFFFFF", 480))
	b := readBody(f)
	for _, point := range []string{"D Fringe length", "Pocket width", "Hood height", "Pom-pom diameter",
		"Cuff length", "Collar height", "Embroidery width", "Brim depth"} {
		_, ok := b.callout(point)
		require.False(t, ok, "%q is not placed", point)
	}
	for _, point := range []string{"A Body length", "B Chest width", "Sleeve length", "Hem width"} {
		_, ok := b.callout(point)
		require.True(t, ok, "%q is placed", point)
	}
}

// TestFlatIsCleanVector traces product shots whose outlines are known and
// checks the flat's outline: one closed run of Bézier curves, few of them
// (not a pixel staircase), every curve's middle within 2 px of the true
// outline.
func TestFlatIsCleanVector(t *testing.T) {
	const side = 600
	for _, kind := range []string{"t_shirt", "trousers", "jacket"} {
		t.Run(kind, func(t *testing.T) {
			f := traceFlat(context.Background(), records.ProductShot(kind, "#3E8E94", "#F4F1EA", side))
			rings := f.outlines()
			require.Len(t, rings, 1, "one closed outline")
			poly := records.Silhouette(kind)
			// The flat is cropped to the garment: line the outline's box up
			// with the polygon's.
			minX, minY := math.Inf(1), math.Inf(1)
			for _, b := range rings[0] {
				minX, minY = math.Min(minX, b.a.x), math.Min(minY, b.a.y)
			}
			px, py := math.Inf(1), math.Inf(1)
			for _, p := range poly {
				px, py = math.Min(px, p[0]*side), math.Min(py, p[1]*side)
			}
			worst := 0.0
			for _, b := range rings[0] {
				// The curve's middle, at t = ½.
				mx := (b.a.x+3*b.b.x+3*b.c.x+b.d.x)/8 - minX + px
				my := (b.a.y+3*b.b.y+3*b.c.y+b.d.y)/8 - minY + py
				best := math.Inf(1)
				for i := range poly {
					a, c := poly[i], poly[(i+1)%len(poly)]
					best = math.Min(best, toSegment(mx, my, a[0]*side, a[1]*side, c[0]*side, c[1]*side))
				}
				worst = math.Max(worst, best)
			}
			t.Logf("%s: %d curves (polygon %d sides), worst %.2f px off", kind, len(rings[0]), len(poly), worst)
			require.LessOrEqual(t, len(rings[0]), 3*len(poly), "a handful of curves a side, not a staircase")
			require.Less(t, worst, 2.0)
		})
	}
}

// toSegment is the distance from (x, y) to the segment (x1, y1)–(x2, y2).
func toSegment(x, y, x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	t := math.Max(0, math.Min(1, ((x-x1)*dx+(y-y1)*dy)/math.Max(1e-9, dx*dx+dy*dy)))
	return math.Hypot(x-x1-t*dx, y-y1-t*dy)
}
