package pattern

import (
	"context"
	"image"
)

// supersample is the samples per pixel side of an anti-aliased tile: each
// pixel is the mean of 4 × 4 samples, so an edge pixel takes one of 17
// levels of coverage between the colours it joins.
const supersample = 4

// fine is s drawn at supersample times the resolution: the same pattern,
// each pixel split into supersample² samples at their centres.
func (s *spec) fine() *spec {
	f := *s
	f.size, f.sx, f.sy = s.size*supersample, s.sx*supersample, s.sy*supersample
	return &f
}

// renderSmooth draws the tile anti-aliased: every pixel is the mean, in
// premultiplied sRGB, of the supersample² samples of the fine tile it
// covers. The fine tile is periodic with period size·supersample, so the
// smooth tile stays seamless. Output rows whose fine rows have equal keys
// are equal and copied. ctx is checked every 16 rows.
func (s *spec) renderSmooth(ctx context.Context) (*image.RGBA, error) {
	const n = supersample
	f := s.fine()
	k, _ := kindByValue(f.kind)
	d := k.rows(f)
	pal := make([][4]uint32, len(f.palette))
	for i, c := range f.palette {
		r, g, b, a := c.RGBA()
		pal[i] = [4]uint32{r >> 8, g >> 8, b >> 8, a >> 8}
	}
	out := image.NewRGBA(image.Rect(0, 0, s.size, s.size))
	var fineRows [n][]uint8
	for j := range fineRows {
		fineRows[j] = make([]uint8, f.size)
	}
	sum := make([][4]uint32, s.size)
	first := map[[n]int]int{}
	for y := range s.size {
		if y%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := out.Pix[y*out.Stride : y*out.Stride+4*s.size]
		if d.key != nil {
			var key [n]int
			for j := range key {
				key[j] = d.key(y*n + j + f.sy)
			}
			if y0, ok := first[key]; ok {
				copy(row, out.Pix[y0*out.Stride:])
				continue
			}
			first[key] = y
		}
		clear(sum)
		for j := range fineRows {
			d.draw(y*n+j, fineRows[j])
			for x, v := range fineRows[j] {
				c, acc := &pal[v], &sum[x/n]
				acc[0] += c[0]
				acc[1] += c[1]
				acc[2] += c[2]
				acc[3] += c[3]
			}
		}
		for x, acc := range sum {
			for ch := range 4 {
				row[4*x+ch] = uint8((acc[ch] + n*n/2) / (n * n))
			}
		}
	}
	return out, nil
}
