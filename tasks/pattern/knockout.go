package pattern

import (
	"context"
	"image"

	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
)

// The cut-out's settings for a motif's backdrop: image.remove_background's
// defaults.
const (
	knockoutTolerance = 12
	knockoutFeather   = 2
)

// knockOut makes a plain backdrop of an opaque motif transparent with
// image.remove_background's cut-out when on, and records in meta what was
// done (knockout, and backdrop when removed). A motif with transparency,
// or whose border is not plain, is used as sent.
func knockOut(ctx context.Context, motif image.Image, on bool, meta map[string]any) (image.Image, error) {
	switch {
	case !on:
		meta["knockout"] = "off"
		return motif, nil
	case !opaqueImage(motif):
		meta["knockout"] = "transparent"
		return motif, nil
	}
	cut, hex, err := imagetasks.CutOut(ctx, motif, knockoutTolerance, knockoutFeather)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		meta["knockout"] = "not_plain"
		return motif, nil
	}
	meta["knockout"], meta["backdrop"] = "removed", hex
	return cut, nil
}

// opaqueImage says whether every pixel of img is fully opaque.
func opaqueImage(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xFFFF {
				return false
			}
		}
	}
	return true
}

// tossAngles are the turns of a tossed tile's four copies, in degrees.
var tossAngles = [4]float64{0, 140, 250, 35}

// turns are the angles of the tile's four copies: rotation, plus each
// copy's toss when tossed.
func turns(in *repeatInput) [4]float64 {
	var out [4]float64
	for k := range out {
		out[k] = in.Rotation
		if in.Toss {
			out[k] += tossAngles[k]
		}
	}
	return out
}
