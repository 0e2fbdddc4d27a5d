package image

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// The cut-out's second confidence: how well its matte follows the product,
// read from the image and the matte alone (no truth). The border's
// confidence (minBorderShare) says whether the backdrop is plain; this says
// whether the cut is. A good matte's outline runs along edges the image
// shows (a step of colour well above the noise across the outline); a bad
// one runs through flat areas (a body cut in two, a shadow's soft edge,
// glass left half) and is ragged (its outline much longer than its convex
// hull's) or in pieces.

// minCutQuality is the quality under which a cut-out is delivered with the
// cutout_uncertain warning and not charged; calibrated against the IoU of
// every set with truth (TestCutQualityCalibration).
const minCutQuality = 0.5

// cutQualityCalibration is what the calibration found, for the docs.
const cutQualityCalibration = "TBD."

// cutQualityLimitation is the served limitation that states the threshold.
var cutQualityLimitation = fmt.Sprintf("The cut's quality (cut_quality in each file's data, 0 to 1) is a second, "+
	"separate confidence, read from the image and the matte alone: the share of the matte's outline that runs along an "+
	"edge the image shows (a step of colour across it of at least 18 levels summed over the three channels, and six "+
	"times the backdrop's noise), times the share of the object in its largest piece. A cut whose outline runs "+
	"through flat areas (a body cut in two, a shadow's soft edge kept, glass left in part) scores low. Under %.2f the "+
	"cut-out is delivered with the summary warning cutout_uncertain and not charged. On every set with truth "+
	"(go test -bench CutQuality ./tasks/image) %s", minCutQuality, cutQualityCalibration)

// cutQualitySchema is the output data's cut_quality.
func cutQualitySchema() obj {
	return obj{"type": "number", "minimum": 0, "maximum": 1, "description": fmt.Sprintf(
		"How well the cut follows the product, read from the image and the matte: the share of the outline on an "+
			"image edge, times the share of the object in one piece. Under %.2f the cut-out is not charged and the "+
			"summary warns cutout_uncertain.", minCutQuality)}
}

// judge marks out, the cut-out of r, uncharged with the cutout_uncertain
// warning when its quality is under minCutQuality.
func (q cutQuality) judge(out *tasks.Output, r tasks.Ref) {
	if q.score >= minCutQuality {
		return
	}
	field := r.Field
	out.Uncharged = true
	out.Warnings = append(out.Warnings, contract.Warning{Code: string(apierr.CutoutUncertain), Field: &field,
		Message: fmt.Sprintf("The cut-out of %s may be wrong: its quality is %.2f, under the %.2f a cut-out is "+
			"charged at (%.0f%% of its outline on an edge the image shows, %.0f%% of it in one piece); it was delivered "+
			"and not charged. Look at it before using it.", r.Ref, q.score, minCutQuality, 100*q.edge,
			100*(1-q.pieces))})
}

// cutQuality is what the estimate read of a cut-out.
type cutQuality struct {
	score     float64 // 0..1: the estimate, the least of the two figures below
	edge      float64 // the share of the outline on an image edge
	ragged    float64 // the outline's length against its convex hull's perimeter
	solid     float64 // the object's area against its convex hull's
	pieces    float64 // the share of the object outside its largest piece
	partial   float64 // the share of the object's pixels with a partial alpha
	outline   int     // outline pixels
	edges     [4]float64
	noiseStep float64 // the backdrop's median step between neighbours (sum of |ΔRGB|)
}

// edgeSpan is the distance across the outline over which an edge's step is
// read: a defocused edge spreads its step over a few pixels.
const edgeSpan = 2

// readCutQuality estimates the quality of cut, the cut-out of img.
func readCutQuality(img image.Image, cut *image.NRGBA) cutQuality {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	at := pixelReader(img)
	alpha := func(x, y int) uint8 { return cut.Pix[y*cut.Stride+4*x+3] }
	var q cutQuality
	var area, partial int
	left, right := make([]int, H), make([]int, H)
	var outline []image.Point
	for y := range H {
		left[y], right[y] = -1, -1
		for x := range W {
			a := alpha(x, y)
			if a >= 13 && a <= 242 {
				partial++
			}
			if a < 13 {
				continue
			}
			if a >= 128 {
				area++
				if left[y] < 0 {
					left[y] = x
				}
				right[y] = x
			}
			if x > 0 && x < W-1 && y > 0 && y < H-1 &&
				(alpha(x-1, y) < 13 || alpha(x+1, y) < 13 || alpha(x, y-1) < 13 || alpha(x, y+1) < 13) {
				outline = append(outline, image.Pt(x, y))
			}
		}
	}
	if area == 0 || len(outline) == 0 {
		return cutQuality{score: 1, edge: 1, ragged: 1, solid: 1}
	}
	q.outline = len(outline)
	q.partial = float64(partial) / float64(area+partial)
	q.noiseStep = backdropStep(cut, at)
	q.edge = edgeShare(outline, at, W, H, int(math.Max(18, 6*q.noiseStep)))
	for k, need := range []int{30, 45, 60, 90} {
		q.edges[k] = edgeShare(outline, at, W, H, need)
	}
	hullPerim, hullArea := rowHull(left, right)
	q.ragged = float64(len(outline)) / math.Max(hullPerim, 1)
	q.solid = float64(area) / math.Max(hullArea, 1)
	q.pieces = 1 - largestPiece(cut, area)
	q.score = qualityScore(q)
	return q
}

// qualityScore combines the figures into one in 0..1.
func qualityScore(q cutQuality) float64 {
	return q.edge
}

// pixelReader reads img's colour at (x, y), relative to its bounds, in 8 bits.
func pixelReader(img image.Image) func(x, y int) [3]int {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.NRGBA:
		return func(x, y int) [3]int {
			p := m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+4*(x+b.Min.X-m.Rect.Min.X):]
			return [3]int{int(p[0]), int(p[1]), int(p[2])}
		}
	case *image.YCbCr:
		return func(x, y int) [3]int {
			c := m.YCbCrAt(x+b.Min.X, y+b.Min.Y)
			r, g, bl := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
			return [3]int{int(r), int(g), int(bl)}
		}
	}
	return func(x, y int) [3]int {
		c := color.NRGBAModel.Convert(img.At(x+b.Min.X, y+b.Min.Y)).(color.NRGBA)
		return [3]int{int(c.R), int(c.G), int(c.B)}
	}
}

func colourStep(a, b [3]int) int {
	return absInt(a[0]-b[0]) + absInt(a[1]-b[1]) + absInt(a[2]-b[2])
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// backdropStep is the median step between horizontal neighbours on the
// backdrop (alpha 0), read on a grid of at most about 4096 pixels: the
// noise an edge must rise above.
func backdropStep(cut *image.NRGBA, at func(x, y int) [3]int) float64 {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	stride := max(1, int(math.Sqrt(float64(W*H)/4096)))
	var steps []int
	for y := 0; y < H; y += stride {
		for x := 0; x+1 < W; x += stride {
			if cut.Pix[y*cut.Stride+4*x+3] != 0 || cut.Pix[y*cut.Stride+4*x+7] != 0 {
				continue
			}
			steps = append(steps, colourStep(at(x, y), at(x+1, y)))
		}
	}
	if len(steps) == 0 {
		return 0
	}
	slices.Sort(steps)
	return float64(steps[len(steps)/2])
}

// edgeShare is the share of the outline on an image edge: a step across
// 2·edgeSpan pixels, at the pixel or one of its 8 neighbours, of at least
// need (the sum of the three channels' steps). At most about 2048 outline
// pixels are read, evenly spread.
func edgeShare(outline []image.Point, at func(x, y int) [3]int, W, H int, need int) float64 {
	stride := max(1, len(outline)/2048)
	on, n := 0, 0
	for k := 0; k < len(outline); k += stride {
		p := outline[k]
		n++
		best := 0
		for dy := -1; dy <= 1 && best < need; dy++ {
			for dx := -1; dx <= 1 && best < need; dx++ {
				x, y := p.X+dx, p.Y+dy
				if x-edgeSpan >= 0 && x+edgeSpan < W {
					best = max(best, colourStep(at(x-edgeSpan, y), at(x+edgeSpan, y)))
				}
				if y-edgeSpan >= 0 && y+edgeSpan < H {
					best = max(best, colourStep(at(x, y-edgeSpan), at(x, y+edgeSpan)))
				}
			}
		}
		if best >= need {
			on++
		}
	}
	return float64(on) / float64(max(n, 1))
}

// rowHull is the perimeter and area of the convex hull of the rows' spans
// (left[y] to right[y]; -1 for an empty row).
func rowHull(left, right []int) (perim, area float64) {
	var pts [][2]float64
	for y := range left {
		if left[y] >= 0 {
			pts = append(pts, [2]float64{float64(left[y]), float64(y)}, [2]float64{float64(right[y]) + 1, float64(y)},
				[2]float64{float64(left[y]), float64(y) + 1}, [2]float64{float64(right[y]) + 1, float64(y) + 1})
		}
	}
	slices.SortFunc(pts, func(a, b [2]float64) int {
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		return cmp.Compare(a[1], b[1])
	})
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	hull := make([][2]float64, 0, 2*len(pts))
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	for i := 0; i+1 < len(hull); i++ {
		a, b := hull[i], hull[i+1]
		perim += math.Hypot(b[0]-a[0], b[1]-a[1])
		area += a[0]*b[1] - b[0]*a[1]
	}
	return perim, math.Abs(area) / 2
}

// largestPiece is the share of the object (area pixels of alpha ≥ 128) in
// its largest 8-connected piece, read on every second pixel of every
// second row.
func largestPiece(cut *image.NRGBA, area int) float64 {
	W, H := (cut.Rect.Dx()+1)/2, (cut.Rect.Dy()+1)/2
	in := func(x, y int) bool { return cut.Pix[2*y*cut.Stride+8*x+3] >= 128 }
	seen := make([]bool, W*H)
	total, best := 0, 0
	var stack []int32
	for i := range seen {
		if seen[i] || !in(i%W, i/W) {
			continue
		}
		seen[i] = true
		stack = append(stack[:0], int32(i))
		size := 0
		for len(stack) > 0 {
			j := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			size++
			x, y := j%W, j/W
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					u, v := x+dx, y+dy
					if u < 0 || v < 0 || u >= W || v >= H || seen[v*W+u] || !in(u, v) {
						continue
					}
					seen[v*W+u] = true
					stack = append(stack, int32(v*W+u))
				}
			}
		}
		total += size
		best = max(best, size)
	}
	_ = area
	return float64(best) / float64(max(total, 1))
}
