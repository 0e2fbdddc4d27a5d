package image

import (
	"image/color"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// labOf is a colour in CIELAB.
func labOf(c color.Color) colour.Lab { return colour.LabOf(c) }

// rgbCache maps sRGB colours to a 32-bit result per colour, remembering
// the last ones seen in a direct-mapped table: an image of a few flat
// colours computes each once, and a photo's misses cost one table write
// beside the computation. get's compute runs on a miss.
type rgbCache struct {
	keys [1 << 14]uint32 // the colour | 1<<24; 0 is an empty slot
	vals [1 << 14]uint32
}

// get is compute(r, g, b), from the table when the colour is in it.
func (c *rgbCache) get(r, g, b uint8, compute func(r, g, b uint8) uint32) uint32 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b) | 1<<24
	slot := key * 0x9E3779B1 >> 18
	if c.keys[slot] != key {
		c.keys[slot], c.vals[slot] = key, compute(r, g, b)
	}
	return c.vals[slot]
}
