package video

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// A tile repeats seamlessly when the step across its wrap edges (its last
// column to its first, its last row to its first) is no stronger than the
// steps inside it: a checkerboard's wrap is as sharp as the edge between
// its squares. It has a seam when, along either axis, the wrap step is at
// least seamMin (the mean of |ΔR|, |ΔG|, |ΔB| down the seam, 0–255) and
// seamTimes the strongest step between neighbouring columns (rows) inside.
const (
	seamMin   = 10.0
	seamTimes = 2.0
)

// seamCheck is a tile's wrap steps and strongest inside steps along x
// and y.
type seamCheck struct {
	edgeX, insideX, edgeY, insideY float64
}

// checkSeams measures the tile's wrap and inside steps.
func checkSeams(img image.Image) seamCheck {
	px := imaging.Clone(img)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	step := func(x0, y0, x1, y1 int) float64 {
		a, b := px.Pix[y0*px.Stride+4*x0:], px.Pix[y1*px.Stride+4*x1:]
		d := 0
		for i := range 3 {
			d += abs(int(a[i]) - int(b[i]))
		}
		return float64(d) / 3
	}
	var s seamCheck
	column := func(x0, x1 int) float64 { // the mean step between two columns
		t := 0.0
		for y := range H {
			t += step(x0, y, x1, y)
		}
		return t / float64(H)
	}
	row := func(y0, y1 int) float64 {
		t := 0.0
		for x := range W {
			t += step(x, y0, x, y1)
		}
		return t / float64(W)
	}
	if W > 1 {
		s.edgeX = column(W-1, 0)
		for x := range W - 1 {
			s.insideX = max(s.insideX, column(x, x+1))
		}
	}
	if H > 1 {
		s.edgeY = row(H-1, 0)
		for y := range H - 1 {
			s.insideY = max(s.insideY, row(y, y+1))
		}
	}
	return s
}

// seamX and seamY say whether the tile shows a seam where it repeats
// side by side, and one above the other.
func (s seamCheck) seamX() bool { return s.edgeX >= seamMin && s.edgeX >= seamTimes*s.insideX }
func (s seamCheck) seamY() bool { return s.edgeY >= seamMin && s.edgeY >= seamTimes*s.insideY }

// seamless says whether the tile repeats without a seam both ways.
func (s seamCheck) seamless() bool { return !s.seamX() && !s.seamY() }

// warning is the tile_not_seamless warning of a tile with a seam.
func (s seamCheck) warning() contract.Warning {
	field := "tile"
	var where string
	var edge, inside float64
	switch {
	case s.seamX() && s.seamY():
		where, edge, inside = "its left and right edges, and its top and bottom edges,", max(s.edgeX, s.edgeY),
			max(s.insideX, s.insideY)
	case s.seamX():
		where, edge, inside = "its left and right edges", s.edgeX, s.insideX
	default:
		where, edge, inside = "its top and bottom edges", s.edgeY, s.insideY
	}
	return contract.Warning{Code: string(apierr.TileNotSeamless), Field: &field, Message: fmt.Sprintf(
		"The tile does not repeat seamlessly: %s differ by %.0f on average (0–255), where neighbouring pixels inside it "+
			"differ by %.0f at most, so the loop shows a seam every tile length. Send mirror true to mirror it into a seamless "+
			"block, or a seamless tile (pattern.generate makes them).", where, edge, inside)}
}

// mirrored is the tile beside its mirror image, above the two flipped top
// to bottom: a block twice the size whose opposite edges always match.
func mirrored(img image.Image) *image.NRGBA {
	t := imaging.Clone(img)
	W, H := t.Rect.Dx(), t.Rect.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, 2*W, 2*H))
	draw.Draw(out, image.Rect(0, 0, W, H), t, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(W, 0, 2*W, H), imaging.FlipH(t), image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(0, H, W, 2*H), imaging.FlipV(t), image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(W, H, 2*W, 2*H), imaging.Rotate180(t), image.Point{}, draw.Src)
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
