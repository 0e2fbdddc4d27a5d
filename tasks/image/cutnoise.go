package image

import (
	"image"
	"math"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// A camera's noise: the cut-out reads its candidates, edges and faint
// lines from a copy of the image smoothed where the image is flat (Lee's
// sigma filter, its range set by the backdrop's measured noise), so a
// sensor's grain and JPEG's blocks do not break an outline into a broken
// line nor lift the thresholds it is read at. The cut-out's colours and
// its alpha still come from the image as it was.

// minFilteredNoise is the backdrop's noise σ (levels, backdropNoise: the
// border's robust spread about the fitted surface, which a JPEG's
// blotches are part of, not only its finest grain) from which the
// analysis copy is smoothed: a clean render or a PNG is read as it is.
const minFilteredNoise = 1.0

// sigmaFiltered is px smoothed by Lee's sigma filter: each channel the
// mean, over the 3 × 3 window, of the pixels whose colour is within
// 3.5 σ of the centre's in each channel (their mean level apart, and their
// chromaticity too: chroma noise is as loud). An edge, a rim or a seam
// deeper than that keeps its pixels apart; grain and JPEG's ripples are
// averaged out. Transparent pixels are copied. It goes back to the pool
// with releaseImage.
func sigmaFiltered(px *image.NRGBA, sigma float64) *image.NRGBA {
	W, H := px.Rect.Dx(), px.Rect.Dy()
	out := &image.NRGBA{Pix: bytePool.get(4 * W * H), Stride: 4 * W, Rect: image.Rect(0, 0, W, H)}
	lim := int(math.Ceil(3.5 * sigma))
	span := uint(2 * lim)
	within := func(d int) bool { return uint(d+lim) <= span } // |d| ≤ lim
	resample.Rows(H, W, func(y int) {
		y0, y1 := max(0, y-1), min(H-1, y+1)
		for x := range W {
			c := px.Pix[y*px.Stride+4*x:]
			o := out.Pix[y*out.Stride+4*x:]
			if c[3] < 255 {
				copy(o[:4], c[:4])
				continue
			}
			c0, c1, c2 := int(c[0]), int(c[1]), int(c[2])
			x0, x1 := max(0, x-1), min(W-1, x+1)
			var s0, s1, s2, k int
			for yy := y0; yy <= y1; yy++ {
				row := px.Pix[yy*px.Stride+4*x0 : yy*px.Stride+4*x1+4]
				for q := 0; q+3 < len(row); q += 4 {
					p0, p1, p2 := int(row[q]), int(row[q+1]), int(row[q+2])
					if row[q+3] == 255 && within(p0-c0) && within(p1-c1) && within(p2-c2) {
						s0, s1, s2, k = s0+p0, s1+p1, s2+p2, k+1
					}
				}
			}
			o[0], o[1], o[2], o[3] = uint8((s0+k/2)/k), uint8((s1+k/2)/k), uint8((s2+k/2)/k), 255
		}
	})
	return out
}

// readSmoothed points st.px at the analysis copy when the backdrop's noise
// is minFilteredNoise or more, and measures the noise left in it (the
// thresholds that scale with the noise follow); readOriginal points it
// back.
func (st *cutState) readSmoothed() {
	sigma := st.noise
	if sigma < minFilteredNoise {
		return
	}
	st.orig, st.smoothed = st.px, sigmaFiltered(st.px, sigma)
	st.px = st.smoothed
	s := sampleBorder(st)
	st.noise = backdropNoise(st.bd, s.xs, s.ys, s.cols, st.tolRGB)
}

// readOriginal points st.px back at the image and releases the analysis
// copy.
func (st *cutState) readOriginal() {
	if st.smoothed == nil {
		return
	}
	st.px = st.orig
	releaseImage(st.smoothed)
	st.orig, st.smoothed = nil, nil
}
