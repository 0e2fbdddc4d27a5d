package image

// Region tests added for issue 46: a product touching the frame, and a
// region a faint outline keeps whose rim is the product's outline.

// maxSideFloods is how many of the flood's parts reaching the frame
// keepMainFlood weighs; past it the rest stay background.
const maxSideFloods = 8

// keepMainFlood leaves in isBg (the flood stopped by faint lines) only
// its part reaching the frame along the most pixels: a white product
// touching the frame, its own faint outline round it, is flooded from its
// own pixels on the frame too, and that part is given back as object for
// keepCompact to judge (a stretch of backdrop cut off by the product is
// handed back by it as backdrop, its tones continuing the backdrop's).
func keepMainFlood(isBg []bool, W, H int) {
	n := W * H
	left := boolPool.get(n)
	defer boolPool.put(left)
	copy(left, isBg)
	type part struct{ seed, frame int }
	var parts []part
	onFrame := func(f func(i int)) {
		for x := range W {
			f(x)
			f((H-1)*W + x)
		}
		for y := 1; y < H-1; y++ {
			f(y * W)
			f(y*W + W - 1)
		}
	}
	onFrame(func(i int) {
		if !left[i] || len(parts) >= maxSideFloods {
			return
		}
		got := flood(left, W, H, []int{i})
		k := 0
		onFrame(func(j int) {
			if got[j] {
				k++
			}
		})
		boolPool.put(got)
		parts = append(parts, part{seed: i, frame: k})
	})
	if len(parts) < 2 {
		return
	}
	main := 0
	for k, p := range parts {
		if p.frame > parts[main].frame {
			main = k
		}
	}
	copy(left, isBg)
	for k, p := range parts {
		if k == main {
			continue
		}
		got := flood(left, W, H, []int{p.seed})
		for i, v := range got {
			if v {
				isBg[i] = false
			}
		}
		boolPool.put(got)
	}
}

// frameGap is how near the frame rimLines finds lines: it reads a few
// pixels each side.
const frameGap = 5

// toFrame carries the lines that end within frameGap pixels of the frame
// on to it in rims: a product touching the frame is closed by its outline
// and the frame.
func toFrame(lines, rims []bool, W, H int) {
	for y := range H {
		for x := range W {
			if !lines[y*W+x] {
				continue
			}
			if x < frameGap {
				for xx := range x {
					rims[y*W+xx] = true
				}
			}
			if x >= W-frameGap {
				for xx := x; xx < W; xx++ {
					rims[y*W+xx] = true
				}
			}
			if y < frameGap {
				for yy := range y {
					rims[yy*W+x] = true
				}
			}
			if y >= H-frameGap {
				for yy := y; yy < H; yy++ {
					rims[yy*W+x] = true
				}
			}
		}
	}
}

// sharpShare is the share of region c's rim where it meets the
// background (isBg) across which the luminance changes by at least least
// levels, from the region's pixel one in to the first background pixel
// (across the lines between them, up to four pixels), and beyond which
// the background is flat (under half that over three more pixels): a
// product's outline is a step all round, a shadow cut off by JPEG's
// ringing fades into the backdrop on its open side.
func sharpShare(c []int32, isBg []bool, lum func(j int) float64, W, H int, least float64) float64 {
	in := boolPool.get(W * H)
	defer boolPool.put(in)
	clear(in)
	for _, j := range c {
		in[j] = true
	}
	rim, sharp := 0, 0
	for _, j32 := range c {
		j := int(j32)
		x, y := j%W, j/W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			first, out, ok := beyondLines(x, y, d, in, isBg, W, H)
			if !ok {
				continue
			}
			rim++
			inner := j
			if xi, yi := x-d[0], y-d[1]; xi >= 0 && yi >= 0 && xi < W && yi < H && in[yi*W+xi] {
				inner = yi*W + xi
			}
			// A step, not a ramp: beyond it the backdrop is flat.
			v, beyond := lum(inner)-lum(first), lum(first)-lum(out)
			if (v >= least || v <= -least) && beyond < least/2 && beyond > -least/2 {
				sharp++
			}
		}
	}
	return float64(sharp) / float64(max(rim, 1))
}

// beyondLines walks from region pixel (x, y) along d across the lines
// next to it (up to four pixels) to the background: first is its second
// pixel (past the outline's mixed one) and out the background pixel
// three further, or the last one before it ends. ok is false when the
// walk meets the region again or no background.
func beyondLines(x, y int, d [2]int, in, isBg []bool, W, H int) (first, out int, ok bool) {
	inside := func(x, y int) bool { return x >= 0 && y >= 0 && x < W && y < H }
	xx, yy := x+d[0], y+d[1]
	if !inside(xx, yy) || in[yy*W+xx] {
		return 0, 0, false
	}
	for range 4 { // across the outline's lines
		if isBg[yy*W+xx] || in[yy*W+xx] || !inside(xx+d[0], yy+d[1]) {
			break
		}
		xx, yy = xx+d[0], yy+d[1]
	}
	if !isBg[yy*W+xx] {
		return 0, 0, false
	}
	if x2, y2 := xx+d[0], yy+d[1]; inside(x2, y2) && isBg[y2*W+x2] {
		xx, yy = x2, y2
	}
	first = yy*W + xx
	out = first
	for range 3 {
		xx, yy = xx+d[0], yy+d[1]
		if !inside(xx, yy) || !isBg[yy*W+xx] {
			break
		}
		out = yy*W + xx
	}
	return first, out, true
}
