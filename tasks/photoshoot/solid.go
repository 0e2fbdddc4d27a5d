package photoshoot

import "image"

// A product is opaque: a cut-out's alpha is partial only along its
// outline (anti-aliasing) and zero in real holes (a handle, a gap between
// straps). The compositor makes sure nothing else of a scene shows through
// it: partial alpha inside the product, or an enclosed patch the cut-out
// was unsure of (a white sole on a white sweep), is made opaque.

// holeAlpha is the alpha at or under which a pixel counts as backdrop;
// an enclosed region whose mean alpha is above unsureMean is product.
const (
	holeAlpha  = 127
	unsureMean = 0.1 * 255
	// edgeBand is how far inside the outline, in pixels, partial alpha is
	// kept as anti-aliasing.
	edgeBand = 2
)

// fillUnsureHoles makes opaque every region of low alpha that the
// backdrop around the product does not reach and whose mean alpha is
// above unsureMean: a real hole is cut to (nearly) zero, a patch of
// partial alpha inside the product is a part the cut-out was unsure of.
func fillUnsureHoles(img *image.NRGBA) {
	W, H := img.Rect.Dx(), img.Rect.Dy()
	n := W * H
	alpha := make([]uint8, n)
	for y := range H {
		row := img.Pix[y*img.Stride:]
		for x := range W {
			alpha[y*W+x] = row[4*x+3]
		}
	}
	seen := make([]bool, n)
	var stack, members []int32
	push := func(j int) {
		if !seen[j] && alpha[j] <= holeAlpha {
			seen[j] = true
			stack = append(stack, int32(j))
		}
	}
	// flood marks the low-alpha region around seed seen; an enclosed
	// region's pixels are kept in members (keep), the outside's need not be.
	flood := func(seed int, keep bool) {
		members = members[:0]
		stack = append(stack[:0], int32(seed))
		seen[seed] = true
		for len(stack) > 0 {
			i := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			if keep {
				members = append(members, int32(i))
			}
			if x := i % W; x > 0 {
				push(i - 1)
			}
			if x := i % W; x < W-1 {
				push(i + 1)
			}
			if i >= W {
				push(i - W)
			}
			if i+W < n {
				push(i + W)
			}
		}
	}
	for x := range W {
		for _, y := range []int{0, H - 1} {
			if i := y*W + x; !seen[i] && alpha[i] <= holeAlpha {
				flood(i, false)
			}
		}
	}
	for y := range H {
		for _, x := range []int{0, W - 1} {
			if i := y*W + x; !seen[i] && alpha[i] <= holeAlpha {
				flood(i, false)
			}
		}
	}
	for i := range n {
		if seen[i] || alpha[i] > holeAlpha {
			continue
		}
		flood(i, true)
		sum := 0
		for _, m := range members {
			sum += int(alpha[m])
		}
		if float64(sum) > unsureMean*float64(len(members)) {
			for _, m := range members {
				img.Pix[int(m)/W*img.Stride+int(m)%W*4+3] = 255
			}
		}
	}
}

// solidify makes the product opaque away from its outline: a pixel more
// than edgeBand pixels from any backdrop pixel (alpha ≤ holeAlpha) gets
// alpha 255, and the faint alpha a resampling filter rings outside the
// outline (under 4) is cut to 0.
func solidify(img *image.NRGBA) {
	W, H := img.Rect.Dx(), img.Rect.Dy()
	dist := make([]int32, W*H)
	const far = 1 << 20
	for y := range H {
		for x := range W {
			i := y*W + x
			if img.Pix[y*img.Stride+x*4+3] <= holeAlpha {
				dist[i] = 0
				continue
			}
			// Outside the image counts as backdrop.
			d := int32(far)
			if x == 0 || y == 0 {
				d = 1
			}
			if x > 0 {
				d = min(d, dist[i-1]+1)
			}
			if y > 0 {
				d = min(d, dist[i-W]+1)
			}
			dist[i] = d
		}
	}
	for y := H - 1; y >= 0; y-- {
		for x := W - 1; x >= 0; x-- {
			i := y*W + x
			if dist[i] == 0 {
				continue
			}
			d := dist[i]
			if x == W-1 || y == H-1 {
				d = 1
			}
			if x < W-1 {
				d = min(d, dist[i+1]+1)
			}
			if y < H-1 {
				d = min(d, dist[i+W]+1)
			}
			dist[i] = d
		}
	}
	for y := range H {
		for x := range W {
			o := y*img.Stride + x*4 + 3
			switch {
			case dist[y*W+x] > edgeBand:
				img.Pix[o] = 255
			case img.Pix[o] < 4:
				img.Pix[o] = 0
			}
		}
	}
}
