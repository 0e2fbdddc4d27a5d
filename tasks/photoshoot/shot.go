package photoshoot

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// shot is one output of a shoot: what to draw and at what size.
type shot struct {
	bg Background
	// body is the figure wearing the product; nil for a packshot.
	body *Body
	pose Pose
	// variant is the shot's number within its pose (count_per_pose).
	variant int
	w, h    int
}

// placement is where a variant puts its subject: across the frame, its
// scale on a studio sweep, and how far forward it stands in a scene (the
// floor line as a share of the height; lower is nearer, so larger).
type placement struct{ x, studioScale, sceneFloor float64 }

// placements are the variants of a pose, in order: centred, nearer, further,
// off-centre.
var placements = []placement{{0.5, 1, 0.88}, {0.5, 1.15, 0.95}, {0.5, 0.8, 0.8}, {0.37, 1, 0.88}}

// figureRatio is a standing figure's height over the camera's height: a
// figure whose feet are d pixels below the horizon is figureRatio·d tall.
const figureRatio = 1.75

// shotResult is a drawn shot with what the compositor measured.
type shotResult struct {
	img *image.NRGBA
	// box is where the product was laid; floor is the line the subject
	// stands on; scale is the subject's height over the frame's.
	box   image.Rectangle
	floor int
	scale float64
}

// draw renders the shot of prod.
func (s shot) draw(prod *image.NRGBA) shotResult {
	img := s.backdrop()
	p := placements[s.variant%len(placements)]
	W, H := float64(s.w), float64(s.h)
	cx := p.x * W
	studio := s.bg.Setting != settingScene
	hy := s.bg.Horizon * H

	if s.body == nil {
		item := turned(prod, s.pose.Angle)
		var floor, maxH float64
		if studio {
			floor, maxH = 0.88*H, 0.62*H*p.studioScale
		} else {
			// Perspective: the product's height grows with the distance of
			// its floor line below the horizon.
			floor = p.sceneFloor * H
			maxH = math.Min(0.5*H*(floor-hy)/(0.88*H-hy), 0.8*H)
		}
		bw, bh := fitBox(item.Rect.Dx(), item.Rect.Dy(), 0.7*W*p.studioScale, maxH)
		box := image.Rect(int(cx)-bw/2, int(floor)-bh, int(cx)-bw/2+bw, int(floor))
		shadowUnder(img, box, studio)
		lay(img, item, box)
		return shotResult{img: img, box: box, floor: int(floor), scale: float64(bh) / H}
	}

	var floor, height float64
	if studio {
		floor, height = 0.95*H, 0.88*H*math.Min(1, p.studioScale)
	} else {
		floor = p.sceneFloor * H
		height = math.Min(figureRatio*(floor-hy), floor-0.03*H)
	}
	foot := image.Pt(int(cx), int(floor))
	shadowUnder(img, image.Rect(int(cx-0.09*height), int(floor)-1, int(cx+0.09*height), int(floor)), studio)
	var box image.Rectangle
	drawFigure(img, *s.body, s.pose.Angle, foot, height, func(f figure) {
		box = dress(img, prod, f, s.pose.Angle)
	})
	return shotResult{img: img, box: box, floor: int(floor), scale: height / H}
}

// backdrop draws the shot's backdrop alone: a scene, or the studio colour.
func (s shot) backdrop() *image.NRGBA {
	if s.bg.Setting == settingScene && s.bg.draw != nil {
		return sceneBackdrop(s.bg, s.w, s.h)
	}
	return newCanvas(s.w, s.h, hexColour(s.bg.Colour))
}

// shadowUnder darkens the floor under an object standing in box: a tight
// contact shadow, and on a studio sweep a wider, softer one.
func shadowUnder(img *image.NRGBA, box image.Rectangle, studio bool) {
	cx, cy := float64(box.Min.X+box.Max.X)/2, float64(box.Max.Y)
	w := float64(box.Dx())
	floorShadow(img, cx, cy, 0.5*w, math.Max(3, 0.06*w), 0.45)
	if studio {
		floorShadow(img, cx+0.08*w, cy+0.02*w, 0.8*w, math.Max(4, 0.13*w), 0.18)
	}
}

// dress lays the garment on the figure's torso: as wide as the shoulders
// (as seen: narrower when the figure is turned) and a little more, its
// length from its own proportions (down to the knees at most), mirrored
// from behind and foreshortened when turned.
func dress(img, garment *image.NRGBA, f figure, angle string) image.Rectangle {
	g := garment
	switch angle {
	case angleBack:
		g = imaging.FlipH(g)
		dim(g, 0.06)
	case angleThreeQuarter, angleSide:
		g = taper(g, 0.94)
	}
	maxW := float64(f.Torso.Dx()) * 1.18
	maxH := float64(f.Knee-f.Torso.Min.Y) * 1.05
	gw, gh := fitBox(g.Rect.Dx(), g.Rect.Dy(), maxW, maxH)
	cx := (f.Torso.Min.X + f.Torso.Max.X) / 2
	top := f.Torso.Min.Y - f.Torso.Dy()/30
	box := image.Rect(cx-gw/2, top, cx-gw/2+gw, top+gh)
	lay(img, g, box)
	return box
}
