package image

// The sixth look's hull, tried for a fragment (widerByEdges), fills all
// its outline holds. That is the product only when what it adds over the
// kept fragment is mostly the product's own tones; it is not when it adds
// mostly the backdrop continuing (a thin ring of product round the sweep
// seen through it: a silver hoop, a frame; a clear tumbler whose body is
// the sweep behind it) or mostly a cast shadow (a white sneaker whose
// hard shadow is the only dark the hull finds). A pixel is the backdrop
// when its level is within the shade test's margin of the backdrop's
// (shadeLevel, shadeNoise: the matching test of blue-screen matting,
// Smith & Blinn 1996), and a shadow when darker than that and a shade of
// the backdrop's hue (shadeOf: a shadow dims every channel alike,
// Finlayson et al. 2006).
const (
	hullBackdropMost = 0.8 // the share of the hull's addition in the backdrop's level that refuses it
	hullShadowMost   = 0.5 // the share of it in the backdrop's shade that refuses it
)

// hullAddsProduct tells whether res, the sixth look's cut, adds to the
// fragment st kept (st.px's opaque pixels) mostly the product (see above).
// A fragment the first cut found to be clear glass (st.clearBody) is
// never filled: the hull would make it opaque.
func (st *cutState) hullAddsProduct(res cutout) bool {
	if st.clearBody != nil {
		return false
	}
	least := max(shadeLevel, shadeNoise*st.noise)
	added, flat, shade := 0, 0, 0
	for i := range st.n {
		if res.img.Pix[4*i+3] < 128 || st.px.Pix[4*i+3] >= 128 {
			continue
		}
		added++
		p := res.img.Pix[4*i : 4*i+3]
		c := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
		d := (c[0]+c[1]+c[2])/3 - st.bd.lum(i, st.W)
		switch {
		case d > -least && d < least:
			flat++
		case d <= -least && st.shadeOf(c, st.bd.at(i%st.W, i/st.W)):
			shade++
		}
	}
	a := float64(added)
	return added > 0 && float64(flat) < hullBackdropMost*a && float64(shade) < hullShadowMost*a
}
