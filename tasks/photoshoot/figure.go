package photoshoot

import (
	"image"
	"image/color"
	"math"
)

// The fashion figure: a croquis drawn from a Body in a pose. All lengths
// are in head heights, scaled to pixels by the figure's height; angles of
// limbs are in degrees from hanging straight down, positive towards the
// image's right.

// limbs are a pose's angles: upper arm and forearm of the image-left and
// image-right arm, thigh and shin of each leg, and the torso's width as
// seen (1 facing the camera, narrower when turned).
type limbs struct {
	lUpper, lFore, rUpper, rFore float64
	lThigh, lShin, rThigh, rShin float64
	turn                         float64
	// shift moves the head and neck sideways (a turned head), in heads.
	shift float64
}

var poseLimbs = map[string]limbs{
	angleFront: {
		lUpper: -8,
		lFore:  -3,
		rUpper: 8,
		rFore:  3,
		lThigh: -3,
		lShin:  -1,
		rThigh: 3,
		rShin:  1,
		turn:   1,
	},
	angleBack: {
		lUpper: -8,
		lFore:  -3,
		rUpper: 8,
		rFore:  3,
		lThigh: -3,
		lShin:  -1,
		rThigh: 3,
		rShin:  1,
		turn:   1,
	},
	angleThreeQuarter: {
		lUpper: -5,
		lFore:  10,
		rUpper: 10,
		rFore:  4,
		lThigh: -2,
		lShin:  0,
		rThigh: 6,
		rShin:  -1,
		turn:   0.8,
		shift:  0.12,
	},
	angleSide: {
		lUpper: -4,
		lFore:  -14,
		rUpper: 4,
		rFore:  10,
		lThigh: 1,
		lShin:  0,
		rThigh: -1,
		rShin:  0,
		turn:   0.52,
		shift:  0.22,
	},
	angleWalking: {
		lUpper: -12,
		lFore:  8,
		rUpper: 14,
		rFore:  22,
		lThigh: -16,
		lShin:  -4,
		rThigh: 15,
		rShin:  24,
		turn:   0.92,
		shift:  0.05,
	},
}

// skeleton is where a body's parts fall, in heads from the top of the head
// and from the figure's centre line.
type skeleton struct {
	shoulderY, waistY, hipY, crotchY, footY float64
	upperArm, foreArm, thigh, shin          float64
	limbR, legR                             float64
}

// skeletonOf places a body's parts: the torso scales with the figure's
// height (k is 1 for an 8.6-head adult), the legs take the rest.
func skeletonOf(b Body) skeleton {
	k := (b.Heads - 1) / 7.6
	s := skeleton{shoulderY: 1 + 0.45*k, waistY: 1 + 1.9*k, hipY: 1 + 2.5*k, crotchY: 1 + 3.0*k, footY: b.Heads - 0.12,
		upperArm: 1.45 * k, foreArm: 1.3 * k, limbR: 0.2 * math.Max(k, 0.8), legR: 0.3 * math.Max(k, 0.8)}
	leg := s.footY - s.crotchY + 0.25
	s.thigh, s.shin = leg*0.5, leg*0.5
	return s
}

// figure is a drawn figure's geometry in pixels, for the compositor.
type figure struct {
	// Torso is the box of the chest to the hips, where a garment is worn.
	Torso image.Rectangle
	// Knee is the height of the knees.
	Knee int
	// Feet is where the figure stands.
	Feet image.Point
	// Turn is the torso's width as seen.
	Turn float64
}

// The colours of the croquis besides skin and hair: a neutral base layer
// and shoes.
var (
	baseLayer = color.NRGBA{0xD9, 0xD6, 0xD0, 255}
	shoes     = color.NRGBA{0x2E, 0x2B, 0x29, 255}
)

// drawFigure draws body in the pose of angle standing with its feet at
// feet, height px tall, and calls dress between the body and the head (the
// garment goes over the torso, under the hair).
func drawFigure(img *image.NRGBA, b Body, angle string, feet image.Point, height float64, dress func(figure)) figure {
	sk := skeletonOf(b)
	l, ok := poseLimbs[angle]
	if !ok {
		l = poseLimbs[angleFront]
	}
	s := height / b.Heads
	top := float64(feet.Y) - height
	cx := float64(feet.X)
	X := func(h float64) float64 { return cx + h*s }
	Y := func(h float64) float64 { return top + h*s }
	skin, hair := hexColour(b.Skin), hexColour(b.Hair)
	shadowSkin := darker(skin, 0.12)
	back := angle == angleBack

	// Long hair falls behind the shoulders.
	if b.HairStyle == "long" || (back && b.HairStyle != "short") {
		hl := 1.9
		if b.HairStyle == "bob" || b.HairStyle == "ponytail" {
			hl = 1.25
		}
		polygon(
			img,
			[][2]float64{
				{X(l.shift - 0.5), Y(0.4)},
				{X(l.shift + 0.5), Y(0.4)},
				{X(l.shift + 0.62), Y(hl)},
				{X(l.shift - 0.62), Y(hl)},
			},
			hair,
		)
	}
	// Legs with shoes.
	leg := func(hx, thigh, shin float64) {
		ax, ay := X(hx), Y(sk.crotchY-0.25)
		kx, ky := ax+math.Sin(thigh*math.Pi/180)*sk.thigh*s, ay+math.Cos(thigh*math.Pi/180)*sk.thigh*s
		fx, fy := kx+math.Sin(shin*math.Pi/180)*sk.shin*s, ky+math.Cos(shin*math.Pi/180)*sk.shin*s
		capsule(img, ax, ay, kx, ky, sk.legR*s, skin)
		capsule(img, kx, ky, fx, fy, sk.legR*0.75*s, skin)
		ellipse(img, fx, fy+0.02*s, sk.legR*1.05*s, sk.legR*0.55*s, shoes)
	}
	hip := b.Hips * 0.5 * l.turn
	leg(-hip, l.lThigh, l.lShin)
	leg(hip, l.rThigh, l.rShin)
	// Neck and torso: a base layer from the chest to the hips.
	capsule(img, X(l.shift*0.6), Y(0.85), X(l.shift*0.5), Y(sk.shoulderY+0.1), 0.2*s, skin)
	w, wa, hp := b.Shoulders*l.turn, b.Waist*l.turn, b.Hips*l.turn
	// The torso in two convex parts, chest to waist and waist to crotch
	// (the waist is narrower than both), then the base layer over it.
	polygon(
		img,
		[][2]float64{{X(-w + 0.1), Y(sk.shoulderY)}, {X(w - 0.1), Y(sk.shoulderY)}, {X(w), Y(sk.shoulderY + 0.25)},
			{X(wa), Y(sk.waistY)}, {X(-wa), Y(sk.waistY)}, {X(-w), Y(sk.shoulderY + 0.25)}},
		skin,
	)
	polygon(
		img,
		[][2]float64{
			{X(-wa), Y(sk.waistY - 0.02)},
			{X(wa), Y(sk.waistY - 0.02)},
			{X(hp), Y(sk.hipY)},
			{X(hp * 0.8), Y(sk.crotchY)},
			{X(-hp * 0.8), Y(sk.crotchY)},
			{X(-hp), Y(sk.hipY)},
		},
		skin,
	)
	polygon(
		img,
		[][2]float64{
			{X(-w * 0.72), Y(sk.shoulderY + 0.3)},
			{X(w * 0.72), Y(sk.shoulderY + 0.3)},
			{X(wa * 0.98), Y(sk.waistY)},
			{X(-wa * 0.98), Y(sk.waistY)},
		},
		baseLayer,
	)
	polygon(
		img,
		[][2]float64{
			{X(-wa * 0.98), Y(sk.waistY - 0.02)},
			{X(wa * 0.98), Y(sk.waistY - 0.02)},
			{X(hp * 0.98), Y(sk.hipY)},
			{
				X(hp * 0.8),
				Y(sk.crotchY - 0.05),
			},
			{X(-hp * 0.8), Y(sk.crotchY - 0.05)},
			{X(-hp * 0.98), Y(sk.hipY)},
		},
		baseLayer,
	)
	// Arms, over the sides of the torso; a garment covers their tops.
	arm := func(sx, upper, fore float64, c color.NRGBA) {
		ax, ay := X(sx), Y(sk.shoulderY+0.1)
		ex, ey := ax+math.Sin(upper*math.Pi/180)*sk.upperArm*s, ay+math.Cos(upper*math.Pi/180)*sk.upperArm*s
		hx, hy := ex+math.Sin(fore*math.Pi/180)*sk.foreArm*s, ey+math.Cos(fore*math.Pi/180)*sk.foreArm*s
		capsule(img, ax, ay, ex, ey, sk.limbR*s, c)
		capsule(img, ex, ey, hx, hy, sk.limbR*0.8*s, c)
		ellipse(img, hx, hy+0.1*s, sk.limbR*0.9*s, sk.limbR*1.4*s, c)
	}
	sh := (b.Shoulders - sk.limbR*0.8) * l.turn
	arm(-sh, l.lUpper, l.lFore, shadowSkin)
	arm(sh, l.rUpper, l.rFore, shadowSkin)
	fig := figure{
		Torso: image.Rect(int(X(-w)), int(Y(sk.shoulderY-0.1)), int(X(w)), int(Y(sk.crotchY))),
		Knee:  int(Y(sk.crotchY + sk.thigh)), Feet: feet, Turn: l.turn,
	}
	if dress != nil {
		dress(fig)
	}
	// Head and hair.
	hx := X(l.shift)
	ellipse(img, hx, Y(0.5), 0.36*s, 0.5*s, skin)
	switch {
	case back:
		ellipse(img, hx, Y(0.47), 0.39*s, 0.5*s, hair)
	case b.HairStyle == "short":
		ellipse(img, hx-0.04*s*boolSign(l.shift > 0), Y(0.24), 0.38*s, 0.27*s, hair)
	default:
		ellipse(img, hx-0.04*s*boolSign(l.shift > 0), Y(0.27), 0.4*s, 0.31*s, hair)
	}
	if b.HairStyle == "ponytail" && !back {
		capsule(img, hx+0.35*s, Y(0.3), hx+0.5*s, Y(1.0), 0.12*s, hair)
	}
	return fig
}

// boolSign is 1 for true, 0 for false.
func boolSign(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
