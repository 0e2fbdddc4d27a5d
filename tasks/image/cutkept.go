package image

// The cut quality's fourth and fifth evidence, for cuts whose outline runs
// on real edges (so the share on an edge is high) to the wrong place.
//
// A kept cast shadow (castShadowKept): under a hard light a product's shadow
// is an edge as real as its outline, and a cut may keep it joined to the
// product. A shadow lowers the light, not the hue: its pixels are the
// backdrop times one factor in every channel (Finlayson et al., "On the
// removal of shadows from images", PAMI 2006; Cucchiara et al., "Detecting
// moving objects, ghosts and shadows in video streams", PAMI 2003, read
// the shadow as the background's chromaticity at a lower level). What the
// cut keeps below its middle in such a shade (smooth, no detail above the
// backdrop's grain), in columns where the cut holds nothing else and no
// lower than the product's lowest row — a shadow cast sideways on the
// floor beside the foot; a grey plinth under a vase lies below it — is a
// shadow kept. A
// product darker than the backdrop all over (grey, black, glass) is a
// shade of it everywhere and is not read (under shadowBody of its area
// outside such a shade).
//
// Thin or pale parts left (leftStrands): a cut that loses a lamp's thin
// stem, a headphone's band or a necklace's chain leaves, outside it and
// joined to it, pixels off the backdrop (by three quarters of what
// missedParts asks: pale parts depart little) that are no shadow (not a
// darker shade of the backdrop) and do not reach the frame (a backdrop's
// own drift does). Their length beyond missedBand from the cut, over the
// outline's, is leftStrands. (Both are region terms in the manner of
// Kohlberger et al., "Evaluating segmentation error without ground
// truth", MICCAI 2012.)

// shadowBody is the least share of the kept area outside a shade of the
// backdrop for castShadowKept to be read.
const shadowBody = 0.3

// shadowWeight and shadowFree: the kept shadow's share of the cut's area
// beyond shadowFree weighs shadowWeight. On the sets with truth good cuts
// keep at most 0.0074 (a cream lamp's foot on a beige check), bad ones
// 0.013 to 0.078 (a grey mouse on grey 0.013, a white mug's hard shadow
// 0.023, pale grey headphones 0.052).
const (
	shadowWeight = 200
	shadowFree   = 0.01
)

// strandsWeight and strandsFree: the strands left over the outline's
// length beyond strandsFree weigh strandsWeight. On the sets with truth
// good cuts leave at most 0.012 (a cream pouch on kraft), bad ones 0.066
// (a white lamp's stem) to 0.11 (a necklace's chain on velvet) and more.
const (
	strandsWeight = 20
	strandsFree   = 0.02
)

// keptSpread is the widest spread of a kept shadow's channel ratios to
// the backdrop's (shadeFactor).
const keptSpread = 0.06

// shadeOf tells whether p is backdrop colour b times one factor f in
// every channel (shadeFactor, within keptSpread), and f.
func (v partsView) shadeOf(p, b [3]float64) (bool, float64) {
	return shadeFactor(p, b, keptSpread, v.noise)
}

// darkShade tells whether grid pixel i is a shadow's tone: a shade of the
// backdrop between 0.2 and 0.9 of its level.
func (v partsView) darkShade(i int) bool {
	ok, f := v.shadeOf(v.colour(i))
	return ok && f > 0.2 && f < 0.9
}

// castShadowKept is the share of the cut's area kept as a cast shadow (see
// above): 0 when the product itself is mostly a shade of the backdrop.
func castShadowKept(v partsView, cut solidAt) float64 {
	W, H := v.W, v.H
	body := make([]bool, W) // columns holding a solid kept pixel that is no shade
	bodyN, foot := 0, 0     // foot: the body's lowest row
	shade := boolPool.get(W * H)
	defer boolPool.put(shade)
	clear(shade)
	for i := range W * H {
		if !cut(i) {
			continue
		}
		if v.darkShade(i) {
			shade[i] = true
			continue
		}
		body[i%W] = true
		bodyN++
		foot = max(foot, i/W)
	}
	if float64(bodyN) < shadowBody*float64(v.area) {
		return 0
	}
	kept := 0
	grain := max(12, 4*v.noise)
	for y := v.mid + 1; y < min(H-1, foot+1); y++ {
		for x := 1; x < W-1; x++ {
			i := y*W + x
			if !shade[i] || body[x] {
				continue
			}
			p, _ := v.colour(i)
			smooth := true
			for _, j := range [4]int{i - 1, i + 1, i - W, i + W} {
				if q, _ := v.colour(j); dist3(p, q) > grain {
					smooth = false
				}
			}
			if smooth {
				kept++
			}
		}
	}
	return float64(kept) / float64(v.area)
}

// solidAt tells whether grid pixel i is solidly kept (alpha ≥ 128).
type solidAt func(i int) bool

// leftStrands is the length of the thin or pale parts left joined to the
// cut (see above) over the outline's length.
func leftStrands(v partsView) float64 {
	W, H := v.W, v.H
	outline := 0
	for y := 1; y < H-1; y++ {
		for x := 1; x < W-1; x++ {
			i := y*W + x
			if v.kept[i] && (!v.kept[i-1] || !v.kept[i+1] || !v.kept[i-W] || !v.kept[i+W]) {
				outline++
			}
		}
	}
	if outline == 0 {
		return 0
	}
	// Off pixels are read lazily, from the cut's rim outwards: 0 unread,
	// 1 off (a strand's), 2 not off or already taken.
	state := bytePool.get(W * H)
	defer bytePool.put(state)
	clear(state)
	isOff := func(i int) bool {
		if state[i] == 0 {
			state[i] = 2
			if v.outside[i] {
				p, b := v.colour(i)
				if ok, f := v.shadeOf(p, b); dist3(p, b) > strandsFar*v.far && (!ok || f >= 1) {
					state[i] = 1 // off the backdrop and no shadow
				}
			}
		}
		return state[i] == 1
	}
	touch := dilate(v.kept, W, H, 2)
	defer boolPool.put(touch)
	left := 0
	var comp []int
	for i := range W * H {
		if !touch[i] || !isOff(i) {
			continue
		}
		comp = append(comp[:0], i)
		state[i] = 2
		beyond, frame := 0, false
		for h := 0; h < len(comp); h++ {
			j := comp[h]
			if !v.near[j] {
				beyond++
			}
			x, y := j%W, j/W
			frame = frame || x == 0 || y == 0 || x == W-1 || y == H-1
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx >= 0 && yy >= 0 && xx < W && yy < H && isOff(yy*W+xx) {
						state[yy*W+xx] = 2
						comp = append(comp, yy*W+xx)
					}
				}
			}
		}
		if !frame {
			left += beyond
		}
	}
	return float64(left) / float64(outline)
}

// strandsFar is the share of missedParts' distance from the backdrop a
// strand's pixel departs by.
var strandsFar = 0.75
