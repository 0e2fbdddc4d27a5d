package image

// A thin part of a light product darker than the backdrop (a pair of
// scissors' grey handles, a pale blade on a pale sweep) has no solid core
// for keepCompact and no lit pixels: it is a ribbon of the product's tone
// between its two faint rims. A shadow's tail or JPEG's ringing beside an
// edge has a line on one side only, its other side fading into the
// backdrop.

// ribbonReach is how far (pixels) ribbon looks each way for the rims.
const ribbonReach = 8

// ribbonShare is the share of a region's pixels off the lines that must
// lie between two rims for it to be a ribbon.
const ribbonShare = 0.25

// ribbon is the seed test of region comp as a ribbon: its pixels off the
// lines, shaded (lift < -1: a lit part is litPart's), with a rim within ribbonReach on both sides along a row or a
// column (a share of its shaded pixels off the lines), a line darker than the pixel by depth to faintRim levels (lum
// is a pixel's level): a shadow's far side is a ramp up to the backdrop,
// not a rim, and a drawn outline is no faint rim (JPEG's ringing beside
// it makes dips); nil where fewer than 20 such pixels, or under ribbonShare of
// those off the lines, are between rims.
func ribbon(comp []int32, lines []bool, lum, lift func(j int) float64, depth, faintRim float64, W, H int,
) func(i int) bool {
	line := func(x, y int) bool { return x >= 0 && y >= 0 && x < W && y < H && lines[y*W+x] }
	// rim tells whether a line lies within ribbonReach of (x, y) along
	// (dx, dy) and dips at least depth below the pixel's level within
	// three pixels of where it starts.
	rim := func(x, y, dx, dy int, level float64) bool {
		for s := 1; s <= ribbonReach; s++ {
			if !line(x+s*dx, y+s*dy) {
				continue
			}
			low := level
			for k := s; k < s+3 && line(x+k*dx, y+k*dy); k++ {
				low = min(low, lum((y+k*dy)*W+x+k*dx))
			}
			return low <= level-depth && low >= level-faintRim
		}
		return false
	}
	walledBy := func(x, y, dx, dy int) bool {
		l := lum(y*W + x)
		return rim(x, y, dx, dy, l) && rim(x, y, -dx, -dy, l)
	}
	between := make(map[int32]bool)
	off := 0
	for _, j := range comp {
		if lines[j] || lift(int(j)) >= -1 {
			continue
		}
		off++
		x, y := int(j)%W, int(j)/W
		if walledBy(x, y, 1, 0) || walledBy(x, y, 0, 1) {
			between[j] = true
		}
	}
	if len(between) < 20 || float64(len(between)) < ribbonShare*float64(off) {
		return nil
	}
	return func(i int) bool { return between[int32(i)] }
}
