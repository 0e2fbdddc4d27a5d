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
