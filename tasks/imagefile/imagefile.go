// Package imagefile decodes the tasks' input images as imaging.Decode
// with AutoOrientation does — a JPEG's EXIF orientation applied — reading
// the orientation from the bytes in hand: imaging pipes every byte through
// a goroutine to find it, which costs a PNG nothing it needs and a JPEG a
// copy and a handoff per buffer.
package imagefile

import (
	"bytes"
	"encoding/binary"
	"image"

	"github.com/disintegration/imaging"
)

// Decode decodes data in any registered format and applies a JPEG's EXIF
// orientation.
func Decode(data []byte) (image.Image, error) {
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
