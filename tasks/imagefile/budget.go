package imagefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // GIF inputs (the first frame)
	_ "image/jpeg" // JPEG inputs
	_ "image/png"  // PNG inputs
	"math"

	_ "golang.org/x/image/bmp"  // BMP inputs
	_ "golang.org/x/image/webp" // WebP inputs
)

// The pixel budget: every image a task reads is checked against it from
// its header before a pixel is decoded, so no input — a 69-byte PNG that
// declares 60000 × 60000 px, a 16-bit or progressive file whose decoder
// needs several bytes a pixel — can take more memory than this.
const (
	// MaxPixels bounds the pixels of an image (width × height).
	MaxPixels = 40_000_000
	// MaxDecodeBytes bounds the memory the decoder takes for one image:
	// the decoded pixels and the decoder's own working memory (a
	// progressive JPEG's coefficients, an interlaced PNG's passes). 8-bit
	// RGBA at MaxPixels takes 160 MB; a 16-bit RGBA PNG fits up to 33
	// megapixels.
	MaxDecodeBytes = 256 << 20
)

// Formats names the image formats the service reads, for messages.
const Formats = "PNG, JPEG, WebP, GIF or BMP"

// ErrUnreadable is data that is not an image in a format the service reads,
// or whose header is damaged.
var ErrUnreadable = errors.New("not a " + Formats + " image")

// Header is what an image's header says, read without decoding a pixel.
type Header struct {
	// Format is the decoder's name: png, jpeg, gif, webp or bmp.
	Format string
	// Width and Height are the image's size in pixels. A GIF's first frame
	// (the only one decoded) lies within them.
	Width, Height int
	// Depth is the bits per channel: 16 for a 16-bit PNG, else 8.
	Depth int
	// Progressive is a progressive JPEG; Interlaced an interlaced PNG.
	Progressive, Interlaced bool
	// bytesPerPixel is the decoder's memory per pixel.
	bytesPerPixel float64
}

// Pixels is width × height.
func (h Header) Pixels() int64 { return int64(h.Width) * int64(h.Height) }

// DecodeBytes is the memory the decoder takes for the image: its decoded
// pixels and its working memory.
func (h Header) DecodeBytes() int64 { return int64(math.Ceil(float64(h.Pixels()) * h.bytesPerPixel)) }

// BudgetError is an image whose header asks for more than the pixel
// budget. Reason says so in the caller's words.
type BudgetError struct {
	Header Header
	Reason string
}

// Error implements error.
func (e *BudgetError) Error() string { return e.Reason }

// CheckSize is the budget's check of a w × h px image whose header is not
// at hand (an upload whose size was recorded): its pixels only. nil when it
// fits.
func CheckSize(w, h int) *BudgetError {
	return Header{Width: w, Height: h, Depth: 8, bytesPerPixel: 1}.Check()
}

// Check says whether the image fits the pixel budget: nil when it does.
func (h Header) Check() *BudgetError {
	if h.Width < 1 || h.Height < 1 {
		return &BudgetError{Header: h, Reason: fmt.Sprintf("the image declares %d × %d px", h.Width, h.Height)}
	}
	if h.Pixels() > MaxPixels {
		return &BudgetError{Header: h, Reason: fmt.Sprintf(
			"the image is %d × %d px (%.1f megapixels); at most %d megapixels are read",
			h.Width, h.Height, float64(h.Pixels())/1e6, MaxPixels/1_000_000)}
	}
	if h.DecodeBytes() > MaxDecodeBytes {
		return &BudgetError{Header: h, Reason: fmt.Sprintf(
			"the image (%d × %d px, %s) needs %d MB to decode; at most %d MB are taken — send it smaller%s",
			h.Width, h.Height, h.kind(), (h.DecodeBytes()+(1<<20)-1)>>20, MaxDecodeBytes>>20, h.advice())}
	}
	return nil
}

// kind describes what makes the image costly to decode.
func (h Header) kind() string {
	switch {
	case h.Progressive:
		return "progressive JPEG"
	case h.Interlaced && h.Depth == 16:
		return "interlaced 16-bit PNG"
	case h.Interlaced:
		return "interlaced PNG"
	case h.Depth == 16:
		return "16-bit " + h.Format
	}
	return h.Format
}

// advice is how else the image could be sent.
func (h Header) advice() string {
	switch {
	case h.Progressive:
		return " or as a baseline JPEG"
	case h.Depth == 16:
		return " or with 8 bits a channel"
	case h.Interlaced:
		return " or not interlaced"
	}
	return ""
}

// ReadHeader reads an image's header: its format, size, bit depth and how
// it is encoded. Data that is not an image the service reads is
// ErrUnreadable.
func ReadHeader(data []byte) (Header, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Header{}, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	h := Header{
		Format:        format,
		Width:         cfg.Width,
		Height:        cfg.Height,
		Depth:         8,
		bytesPerPixel: modelBytes(cfg.ColorModel),
	}
	if h.bytesPerPixel == 8 || cfg.ColorModel == color.Gray16Model {
		h.Depth = 16
	}
	switch format {
	case "jpeg":
		h.bytesPerPixel, h.Progressive = jpegBytes(data)
	case "png":
		// An interlaced PNG decodes pass by pass into images of their own
		// before they are merged: up to twice the pixels.
		if len(data) > 28 && data[28] == 1 {
			h.Interlaced = true
			h.bytesPerPixel *= 2
		}
	}
	return h, nil
}

// modelBytes is the memory a pixel of the decoded image takes, by its
// colour model; 4 (RGBA) for a model not listed.
func modelBytes(m color.Model) float64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// jpegBytes is the decoder's memory per pixel of a JPEG, read from its
// frame header: a plane a component (a 4-component CMYK file is converted
// into a second image), and, for a progressive file, the DCT coefficients
// the decoder keeps until the last scan (4 bytes a coefficient, per
// component at its sampling). A header it cannot find counts as the
// costliest: a progressive 4:4:4 file.
func jpegBytes(data []byte) (float64, bool) {
	comps, sampling, progressive, ok := jpegFrame(data)
	if !ok {
		return 15, true
	}
	perPixel := float64(comps)
	if comps == 4 {
		perPixel = 8
	}
	if progressive {
		perPixel += 4 * sampling
	}
	return perPixel, progressive
}

// jpegFrame reads a JPEG's start-of-frame segment: the number of
// components, the sum over components of their share of the full
// resolution (1.5 for 4:2:0 YCbCr, 3 for 4:4:4) and whether it is
// progressive.
func jpegFrame(data []byte) (comps int, sampling float64, progressive, ok bool) {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 0, 0, false, false
	}
	p := data[2:]
	for len(p) >= 4 {
		if p[0] != 0xFF {
			return 0, 0, false, false
		}
		marker := p[1]
		if marker == 0xFF { // fill byte
			p = p[1:]
			continue
		}
		size := int(binary.BigEndian.Uint16(p[2:]))
		if size < 2 || len(p) < 2+size {
			return 0, 0, false, false
		}
		seg := p[4 : 2+size]
		switch marker {
		case 0xC0, 0xC1, 0xC2: // the frames Go decodes: baseline, extended, progressive
			if len(seg) < 6 {
				return 0, 0, false, false
			}
			n := int(seg[5])
			if n < 1 || len(seg) < 6+3*n {
				return 0, 0, false, false
			}
			hmax, vmax := 1, 1
			for i := range n {
				f := seg[6+3*i+1]
				hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
			}
			for i := range n {
				f := seg[6+3*i+1]
				sampling += float64(int(f>>4)*int(f&15)) / float64(hmax*vmax)
			}
			return n, sampling, marker == 0xC2, true
		case 0xDA, 0xD9: // scan data or the end before a frame
			return 0, 0, false, false
		}
		p = p[2+size:]
	}
	return 0, 0, false, false
}
