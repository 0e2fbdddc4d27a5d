// Package imagefile is where every image a task reads is decoded: the
// header is checked against the pixel budget (budget.go) before a pixel is
// decoded, and a JPEG's EXIF orientation is applied as imaging.Decode with
// AutoOrientation does, read from the bytes in hand (imaging pipes every
// byte through a goroutine to find it, which costs a PNG nothing it needs
// and a JPEG a copy and a handoff per buffer). No other package calls an
// image decoder (a test walks the source to keep it so).
package imagefile

import (
	"bytes"
	"encoding/binary"
	"image"
	"runtime"
	"sync/atomic"

	"github.com/disintegration/imaging"
)

// Decode decodes data at full size within the pixel budget and applies a
// JPEG's EXIF orientation. Data that is not an image the service reads is
// ErrUnreadable; an image over the budget is a *BudgetError, refused from
// its header before a pixel is decoded.
func Decode(data []byte) (image.Image, error) {
	img, err := decode(data)
	if err == nil {
		stats.decodes.Add(1)
	}
	return img, err
}

// Reduce decodes data at full size within the pixel budget, hands the
// image (EXIF orientation applied) to reduce — which draws or scales what
// it needs from it and must not keep it — and returns what reduce made.
// The full-size image is released when Reduce returns, so a step that
// reads its images through Reduce one at a time holds one full-size image
// at most, beside what it keeps of each.
func Reduce[T any](data []byte, reduce func(full image.Image) T) (T, error) {
	var zero T
	alive := stats.alive.Add(1)
	defer stats.alive.Add(-1)
	for peak := stats.peak.Load(); alive > peak && !stats.peak.CompareAndSwap(peak, alive); peak = stats.peak.Load() {
	}
	img, err := decode(data)
	if err != nil {
		return zero, err
	}
	stats.reductions.Add(1)
	out := reduce(img)
	if b := img.Bounds(); int64(b.Dx())*int64(b.Dy())*4 >= collectAbove {
		// The full image is garbage now: collect it before the next one is
		// decoded, so a step that reads many large images holds one at a
		// time in memory too, not one per garbage-collection cycle.
		img = nil
		runtime.GC()
	}
	return out, nil
}

// collectAbove is the size of a decoded image whose release Reduce follows
// with a garbage collection: 8 megapixels.
const collectAbove = 32 << 20

// Stats counts the decodes of this process.
type Stats struct {
	// Decodes are the images Decode returned at full size.
	Decodes int64
	// Reductions are the images Reduce decoded and released.
	Reductions int64
	// Alive is the number of full-size images Reduce holds now, and
	// PeakAlive the most it held at once since ResetPeak.
	Alive, PeakAlive int64
}

var stats struct{ decodes, reductions, alive, peak atomic.Int64 }

// ReadStats reads the process's decode counts.
func ReadStats() Stats {
	return Stats{Decodes: stats.decodes.Load(), Reductions: stats.reductions.Load(),
		Alive: stats.alive.Load(), PeakAlive: stats.peak.Load()}
}

// ResetPeak starts PeakAlive again from the images held now.
func ResetPeak() { stats.peak.Store(stats.alive.Load()) }

// decode checks data's header against the budget, decodes it and applies
// the EXIF orientation.
func decode(data []byte) (image.Image, error) {
	h, err := ReadHeader(data)
	if err != nil {
		return nil, err
	}
	if e := h.Check(); e != nil {
		return nil, e
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	switch Orientation(data) {
	case 2:
		img = imaging.FlipH(img)
	case 3:
		img = imaging.Rotate180(img)
	case 4:
		img = imaging.FlipV(img)
	case 5:
		img = imaging.Transpose(img)
	case 6:
		img = imaging.Rotate270(img)
	case 7:
		img = imaging.Transverse(img)
	case 8:
		img = imaging.Rotate90(img)
	}
	return img, nil
}

// Orientation is the EXIF orientation (1 to 8) of a JPEG, read where
// imaging reads it: the IFD0 of the first APP1 segment, which must follow
// the SOI marker and other segments directly. 0 when there is none.
func Orientation(data []byte) int {
	if len(data) < 2 || data[0] != 0xFF || data[1] != 0xD8 {
		return 0
	}
	p := data[2:]
	for { // the segments up to APP1
		if len(p) < 4 || p[0] != 0xFF {
			return 0
		}
		marker, size := p[1], int(binary.BigEndian.Uint16(p[2:]))
		p = p[4:]
		if marker == 0xE1 {
			break
		}
		if size < 2 || len(p) < size-2 {
			return 0
		}
		p = p[size-2:]
	}
	if len(p) < 6 || string(p[:4]) != "Exif" {
		return 0
	}
	tiff := p[6:] // past "Exif\0\0"
	if len(tiff) < 8 {
		return 0
	}
	var order binary.ByteOrder
	switch string(tiff[:2]) {
	case "MM":
		order = binary.BigEndian
	case "II":
		order = binary.LittleEndian
	default:
		return 0
	}
	offset := int64(order.Uint32(tiff[4:]))
	if offset < 8 || offset+2 > int64(len(tiff)) {
		return 0
	}
	ifd := tiff[offset:]
	n := int(order.Uint16(ifd))
	for i := range n {
		e := ifd[min(2+12*i, len(ifd)):]
		if len(e) < 2 {
			return 0
		}
		if order.Uint16(e) != 0x0112 {
			if len(e) < 12 {
				return 0
			}
			continue
		}
		if len(e) < 10 {
			return 0
		}
		if v := int(order.Uint16(e[8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}
