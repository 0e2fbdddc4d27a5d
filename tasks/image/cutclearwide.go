package image

import (
	"context"
	"image"
)

// A clear glass body of which the first look keeps only its parts of
// their own tone (a perfume flask's cap, the liquid in its lower half and
// a highlight): its thin walls are the backdrop seen through them and the
// floods give them to the backdrop, but their outline is still there, a
// closed run of long faint lines round the body where the glass bends the
// light, and a soft step where its neck dims the sweep. The kept parts
// are too large a share of the image for the fifth look's fragment rule
// (widerByEdges), so the product is cut short by its whole glass.
//
// When the first look filled no clear body itself (st.clearBody) and long
// faint lines (shadeLine pixels or more, cutshading.go) lie off the kept
// object, beyond two pixels from it, on at least clearBeyond of the kept
// object's own border, the fifth look's region (edgedBody) is tried, its
// border on a rim within clearRimReach pixels of a long faint line (clear
// glass on white: the residual's edges run four or five pixels wide round
// its rim lines, so the region's border lies that far out of them; a
// perfume flask had 0.10 of its border within two pixels of one): it
// is cut round (cutAroundBody) and the cut taken when it holds what was
// kept (fragmentHeld of it), adds at least clearGrowth of it outside the
// kept object's filled outline (not a handle's hole it closes), and what
// it adds is mostly the backdrop's tones seen through glass (at least
// outlineNear of it within the tolerance of the backdrop or a shade of
// it, st.cand: clear glass, not a part of its own colour the first look
// should have kept). What it
// adds, with the kept pixels in the backdrop's tones, is a clear body
// (res.clearBody): its alpha is read from how much it dims the backdrop
// (cutclear.go). The fifth look's region closes a contact shadow under
// the glass with it (the shadow's lower edge is as long a line as the
// glass's): its rows at the bottom that are mostly a shade of the backdrop
// (clearShade of their pixels, st.cand off st.near) are left to the cut,
// which peels them as the shadow they are (withoutShadeRows).
//
// Two kinds of product look the same and are declined. An opaque product
// of its own colour under a hard sun, its cast shadow a region of the
// backdrop's shades the fifth look closes with it: what the look adds is
// then a thick patch the sweep darkened evenly (castShadowIn,
// cutcastshade.go), not thin rim lines round the backdrop's own tones.
// And a grey body (a chrome toaster) whose light sides the first look
// lost: under clearOwnTone of what it kept is of its own tone (ownTone),
// where a glass's cap and contents are.

const (
	clearBeyond = 0.5 // the least length of long lines off the kept object, per pixel of its border
	clearGrowth = 0.5 // the least the fifth look's region adds outside the kept object, of its size
	clearShade  = 0.8 // the least share of a bottom row's pixels in shade that leaves it to the cut
	// clearOwnTone is the least share of the kept pixels of their own tone (ownTone, cutcastshade.go).
	clearOwnTone = 0.2
	// clearRimReach is how far from a long faint line a border pixel of the
	// fifth look's region still lies on a rim (2 for a body lost with no
	// product kept, lookAtEdges).
	clearRimReach = 5
)

// widerByClearOutline is the fifth look's cut-out of img when the cut-out
// st made leaves a clear body's outline beyond what it kept (see above);
// ok is false otherwise.
func widerByClearOutline(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool,
	st *cutState) (cutout, bool, error) {
	W, H, n := st.W, st.H, st.n
	kept := make([]bool, n)
	border := 0
	for i := range n {
		kept[i] = st.px.Pix[4*i+3] > 0
	}
	for i := range n {
		if kept[i] && !allOut(kept, i, W, H) {
			border++
		}
	}
	if st.clearBody != nil || border == 0 || !st.linesBeyond(kept, border) { // a clear body filled already
		return cutout{}, false, nil
	}
	body, seen, err := edgedBody(ctx, img, tol, clearRimReach)
	if err != nil || body == nil {
		return cutout{}, false, err
	}
	res, ok, err := cutAroundBody(ctx, img, tol, feather, keepShadow, st.withoutShadeRows(body), seen < whiteSure)
	if err != nil || !ok {
		return cutout{}, false, err
	}
	res.unseen = 1 - seen
	filled := filledOutline(kept, W, H)
	defer boolPool.put(filled)
	was, held, added, near := 0, 0, 0, 0
	see := make([]bool, n)
	for i := range n {
		got := res.img.Pix[4*i+3] > 0
		if kept[i] {
			was++
			if got {
				held++
			}
		}
		if !got {
			continue
		}
		if !filled[i] {
			added++
			if st.cand[i] {
				near++
			}
		}
		see[i] = !kept[i] || st.near[i]
	}
	if float64(held) < fragmentHeld*float64(was) || float64(added) < clearGrowth*float64(was) ||
		float64(near) < outlineNear*float64(added) {
		return cutout{}, false, nil
	}
	if float64(st.ownTone(img, kept)) < clearOwnTone*float64(was) || // a grey body, not a cap and contents
		st.castShadowIn(img, addedMask(res.img.Pix, filled)) { // a hard cast shadow beside an opaque product
		return cutout{}, false, nil
	}
	res.clearBody = see
	return res, true, nil
}

// linesBeyond tells whether long faint lines lie off the kept object,
// more than two pixels from it, on at least clearBeyond of its border.
func (st *cutState) linesBeyond(kept []bool, border int) bool {
	W, H := st.W, st.H
	off := longLines(st.lines, W, H)
	grown := dilate(kept, W, H, 2)
	defer boolPool.put(grown)
	beyond := 0
	for i, o := range off {
		if !o && !grown[i] {
			beyond++
		}
	}
	return float64(beyond) >= clearBeyond*float64(border)
}

// filledOutline is the mask of the kept object with the holes it
// encloses filled: what the backdrop flooded from the border does not
// reach. It goes back to the pool with boolPool.put.
func filledOutline(kept []bool, W, H int) []bool {
	n := W * H
	open := boolPool.get(n)
	for i := range n {
		open[i] = !kept[i]
	}
	seeds := borderSeeds(W, H)
	out := flood(open, W, H, seeds)
	boolPool.put(open)
	for i := range n {
		out[i] = !out[i]
	}
	return out
}

// withoutShadeRows is body less its rows at the bottom, up to the first
// that is not, that are mostly a shade of the backdrop (see above): a
// contact shadow the fifth look closed with the glass. At most a quarter
// of its rows are left out.
func (st *cutState) withoutShadeRows(body []int32) []int32 {
	W := st.W
	type row struct{ all, shade int }
	rows := map[int]*row{}
	top, bottom := st.H, -1
	for _, j := range body {
		y := int(j) / W
		r := rows[y]
		if r == nil {
			r = &row{}
			rows[y] = r
		}
		r.all++
		if st.cand[j] && !st.near[j] {
			r.shade++
		}
		top, bottom = min(top, y), max(bottom, y)
	}
	cut := bottom + 1
	for y := bottom; y >= bottom-(bottom-top)/4; y-- {
		r := rows[y]
		if r != nil && float64(r.shade) < clearShade*float64(r.all) {
			break
		}
		cut = y
	}
	kept := body[:0:0]
	for _, j := range body {
		if int(j)/W < cut {
			kept = append(kept, j)
		}
	}
	return kept
}

// addedMask is the pixels a cut (pix, its alpha) holds outside filled.
func addedMask(pix []uint8, filled []bool) []bool {
	out := make([]bool, len(filled))
	for i := range out {
		out[i] = pix[4*i+3] > 0 && !filled[i]
	}
	return out
}
