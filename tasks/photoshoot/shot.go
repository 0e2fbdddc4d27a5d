package photoshoot

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// shot is one output of a shoot: what to draw and at what size.
type shot struct {
	bg   Background
	pose Pose
	// variant is the shot's number within its pose (count_per_pose).
	variant int
	w, h    int
	// market frames the shot by a marketplace's rules; nil: by placement.
	market *marketplace
	// reflection adds a reflection on the studio floor.
	reflection bool
	// heightCM is the product's real height; 0 when not sent (a scene
	// needs it: refuseCreate).
	heightCM float64
}

// placement is where a variant puts its subject: across the frame, its
// scale on a studio sweep, and how far forward it stands in a scene (the
// floor line as a share of the height; lower is nearer, so larger).
type placement struct{ x, studioScale, sceneFloor float64 }

// placements are the variants of a pose, in order: centred, nearer, further,
// off-centre.
var placements = []placement{{0.5, 1, 0.88}, {0.5, 1.15, 0.95}, {0.5, 0.8, 0.8}, {0.37, 1, 0.88}}

// A scene's camera is level and stands cameraCM above the floor: as low
// as minCameraCM (a photographer crouching) and as high as maxCameraCM
// (eye level), and within those as low as frames the product at most
// sceneTarget of the shot's height and sceneWidth of its width in the
// centred placement. A small product is small in a scene; the floor's
// planks and tiles are drawn for the camera's height.
const (
	sceneTarget = 0.3
	sceneWidth  = 0.6
	minCameraCM = 35
	maxCameraCM = 160
)

// shotResult is a drawn shot with what the compositor measured.
type shotResult struct {
	img *image.NRGBA
	// box is where the product was laid; floor is the line it stands on;
	// scale is its height over the frame's.
	box   image.Rectangle
	floor int
	scale float64
	// item is the product as laid, at box's size.
	item *image.NRGBA
}

// draw renders the shot of prod (a cut-out, trimmed).
func (s shot) draw(prod *image.NRGBA) shotResult {
	item := prod
	if s.pose.Angle == angleWalking {
		item = tilted(prod)
	}
	return s.drawItem(item)
}

// tilted is prod as a walking pose lays it: turned 6° and trimmed.
func tilted(prod *image.NRGBA) *image.NRGBA {
	return trim(imaging.Rotate(prod, 6, image.Transparent.C))
}

// drawItem renders the shot of item, the product as the pose lays it
// (draw's); item is only read.
func (s shot) drawItem(item *image.NRGBA) shotResult {
	box, cam := s.frame(item)
	img := s.backdrop(cam)
	laid := imaging.Resize(item, box.Dx(), box.Dy(), imaging.Lanczos)
	solidify(laid)
	floor := contactShadow(img, laid, box, s.bg.Setting != settingScene)
	if s.reflection {
		reflect(img, laid, box, floor)
	}
	lay(img, laid, box)
	return shotResult{img: img, box: box, floor: floor, scale: float64(box.Dy()) / float64(s.h), item: laid}
}

// frame is where item lies in the shot, and in a scene the camera's
// height in centimetres that frames it (0 in the studio).
func (s shot) frame(item *image.NRGBA) (image.Rectangle, float64) {
	W, H := float64(s.w), float64(s.h)
	iw, ih := item.Rect.Dx(), item.Rect.Dy()
	if m := s.market; m != nil {
		// The marketplace's fill, centred: the same framing every shot.
		bw, bh := fitBox(iw, ih, m.fill*W, m.fill*H)
		x, y := (s.w-bw)/2, (s.h-bh)/2
		return image.Rect(x, y, x+bw, y+bh), 0
	}
	p := placements[s.variant%len(placements)]
	cx := p.x * W
	if s.bg.Setting != settingScene {
		bw, bh := fitBox(iw, ih, 0.7*W*p.studioScale, 0.62*H*p.studioScale)
		floor := int(0.88 * H)
		return image.Rect(int(cx)-bw/2, floor-bh, int(cx)-bw/2+bw, floor), 0
	}
	// In a scene the product stands at its real height: an object of
	// height h standing d px below the horizon, seen by a level camera
	// c cm above the floor, is d·h/c px tall. The camera is set once per
	// shoot (from the centred placement) so every placement is in scale.
	hy := s.bg.Horizon * H
	d0 := placements[0].sceneFloor*H - hy
	aspect := float64(iw) / float64(ih)
	cam := d0 * s.heightCM * math.Max(1/(sceneTarget*H), aspect/(sceneWidth*W))
	cam = math.Max(minCameraCM, math.Min(maxCameraCM, cam))
	floor := p.sceneFloor * H
	bh := (floor - hy) * s.heightCM / cam
	bw, bh2 := fitBox(iw, ih, math.Inf(1), bh)
	if bw > int(0.94*W) {
		bw, bh2 = fitBox(iw, ih, 0.94*W, bh)
	}
	return image.Rect(int(cx)-bw/2, int(floor)-bh2, int(cx)-bw/2+bw, int(floor)), cam
}

// backdrop draws the shot's backdrop alone: a scene seen by a camera cam
// cm above its floor, or the studio colour.
func (s shot) backdrop(cam float64) *image.NRGBA {
	if s.bg.Setting == settingScene && s.bg.draw != nil {
		return sceneBackdrop(s.bg, s.w, s.h, cam)
	}
	return newCanvas(s.w, s.h, hexColour(s.bg.Colour))
}
