package colourwork

import (
	"context"
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// candidateInks are the colours that may be the design's inks: k-means
// (colour.Cluster, up to maxSeparations clusters, colours closer than
// mergeDE merged) over every opaque pixel at full resolution, so a 1-px
// line is seen as its own colour and not as a blend of a smaller copy.
// Pixels are counted in bins of 5 bits a channel, each bin its mean
// colour. Blends of two inks (anti-aliased edges) come out as clusters
// too; separateInks drops those the inks around them explain.
func candidateInks(ctx context.Context, px *image.NRGBA) ([][3]float64, error) {
	const bins = 1 << 15
	sums := make([][3]float64, bins)
	counts := make([]float64, bins)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	for y := range H {
		if y%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		row := px.Pix[y*px.Stride : y*px.Stride+4*W]
		for o := 0; o < len(row); o += 4 {
			p := row[o : o+4 : o+4]
			if p[3] < 128 {
				continue
			}
			b := int(p[0]>>3)<<10 | int(p[1]>>3)<<5 | int(p[2]>>3)
			sums[b][0] += float64(p[0])
			sums[b][1] += float64(p[1])
			sums[b][2] += float64(p[2])
			counts[b]++
		}
	}
	var pts []colour.Weighted
	for b, n := range counts {
		if n == 0 {
			continue
		}
		s := sums[b]
		pts = append(pts, colour.Weighted{
			C: colour.LabOf8(uint8(s[0]/n+0.5), uint8(s[1]/n+0.5), uint8(s[2]/n+0.5)), W: n})
	}
	var out [][3]float64
	for _, s := range colour.Cluster(pts, maxSeparations, mergeDE, candidateShare) {
		c := s.C.NRGBA()
		out = append(out, [3]float64{float64(c.R), float64(c.G), float64(c.B)})
	}
	return out, nil
}
