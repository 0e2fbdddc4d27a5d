package video

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// gifCapBytes is the most a GIF loop may take per frame pixel and second
// of loop: 8.3 MB for 4 s at 720 × 720. A loop that passes it at full
// quality is made again at the next gifLevel.
const gifCapBytes = 4

// gifLevel is one way to make a GIF loop: a frame rate and a palette,
// error-diffused (spread 0) or ordered-dithered (spread, 0–255).
type gifLevel struct {
	fps, colours int
	spread       int32
}

// gifLevels are tried in turn until the GIF fits gifCapBytes: full
// quality, half the frame rate, then 32 colours ordered-dithered (a fixed
// pattern compresses far better than error diffusion's noise).
var gifLevels = []gifLevel{
	{fps: gifFPS, colours: 255},
	{fps: gifFPS / 2, colours: 255},
	{fps: gifFPS / 2, colours: 32, spread: 16},
}

// gifLoop is a loop made as GIF: its bytes, motion and level, and the
// warning when it is not at full quality or still over the cap.
type gifLoop struct {
	data    []byte
	m       motion
	level   gifLevel
	warning *contract.Warning
}

// gifCap is the size cap of a GIF loop of in, in bytes.
func gifCap(in *loopInput) int {
	W, H := size(in.Size)
	return gifCapBytes * W * H * in.Seconds
}

// loopGIF makes the loop of src as GIF, at the first gifLevel that fits
// the cap (the last one where none does).
func loopGIF(ctx context.Context, in *loopInput, src image.Image, ref tasks.Ref) (gifLoop, error) {
	W, H := size(in.Size)
	limit := gifCap(in)
	var g gifLoop
	for _, lv := range gifLevels {
		m, err := fitMotion(in, src.Bounds(), lv.fps, ref)
		if err != nil {
			return g, err
		}
		tile := loopTile(src, m)
		// One palette for the whole loop, the tile dithered once: every
		// frame is then an exact shift of the last, so the loop closes
		// pixel for pixel.
		h := histogramOf(tile)
		pal := h.fewestColours(lv.colours)
		lut := h.lookup(pal)
		pal = loopPalette(pal)
		var pt *image.Paletted
		if lv.spread > 0 {
			pt = ditherOrdered(tile, pal, lut, lv.spread)
		} else {
			pt = dither(tile, pal, lut)
		}
		frames := make([]*image.Paletted, m.frames)
		for k := range frames {
			frames[k] = windowPaletted(pt, m, k, W, H)
		}
		data, err := encodeLoopGIF(ctx, frames, pal, 100/lv.fps)
		if err != nil {
			return g, err
		}
		g = gifLoop{data: data, m: m, level: lv}
		if len(data) <= limit {
			break
		}
	}
	if g.level != gifLevels[0] || len(g.data) > limit {
		g.warning = gifWarning(g, limit)
	}
	return g, nil
}

// gifWarning says how a GIF loop was reduced and whether it still passes
// the cap.
func gifWarning(g gifLoop, limit int) *contract.Warning {
	field := "format"
	how := fmt.Sprintf("%d frames per second", g.level.fps)
	if g.level.colours < gifLevels[0].colours {
		how += fmt.Sprintf(" and %d colours", g.level.colours)
	}
	msg := fmt.Sprintf("At full quality the GIF would pass %.1f MB (the cap for this size and length), so it was made at "+
		"%s: %.1f MB.", float64(limit)/1e6, how, float64(len(g.data))/1e6)
	if len(g.data) > limit {
		msg += " It is still over the cap: the tile has too much fine detail for GIF."
	}
	msg += " Format mp4 keeps full quality at a fraction of the size."
	return &contract.Warning{Code: string(apierr.GIFReduced), Field: &field, Message: msg}
}

// paletteError is the most a palette may miss a tile's colours by, on
// average over its pixels (RGB distance), for fewestColours to take it.
const paletteError = 2.0

// fewestColours is the smallest palette of 15, 31, 63 or 127 colours (a
// GIF's codes of 4 to 7 bits) that holds the tile's colours within
// paletteError on average, else one of at most most colours: a tile of a
// few flat colours compresses in far fewer bits a pixel.
func (h *histogram) fewestColours(most int) color.Palette {
	var total float64
	for _, c := range h.used {
		total += float64(h.n[c])
	}
	for n := 15; n < most; n = 2*n + 1 {
		pal := h.medianCut(n)
		lut := h.lookup(pal)
		var miss float64
		for _, c := range h.used {
			p := lut.rgb[lut.at(c)]
			dr := float64(h.channel(c, 0)) - float64(p[0])
			dg := float64(h.channel(c, 1)) - float64(p[1])
			db := float64(h.channel(c, 2)) - float64(p[2])
			miss += float64(h.n[c]) * math.Sqrt(dr*dr+dg*dg+db*db)
		}
		if miss <= paletteError*total {
			return pal
		}
	}
	return h.medianCut(most)
}
