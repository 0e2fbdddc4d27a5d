package image

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sort"
)

// Colour profiles are kept, not converted: the pixel values of an output
// stay in the colour space of its input and the output carries the
// input's ICC profile (PNG iCCP chunk, JPEG APP2 ICC_PROFILE segments), so
// a Display P3 or Adobe RGB photo looks the same after a resize. Inputs
// without a profile (and WebP, GIF, BMP) give outputs without one, which
// viewers read as sRGB.

// maxICC bounds a profile we carry over; real profiles are a few KB.
const maxICC = 1 << 20

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// readICC returns the ICC profile embedded in a PNG or JPEG file, or nil.
func readICC(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, pngSignature):
		return pngICC(data)
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		return jpegICC(data)
	}
	return nil
}

// pngICC reads the iCCP chunk: a name, a NUL, compression method 0 and the
// zlib-compressed profile.
func pngICC(data []byte) []byte {
	p := len(pngSignature)
	for p+8 <= len(data) {
		n := int(binary.BigEndian.Uint32(data[p:]))
		typ := string(data[p+4 : p+8])
		if n < 0 || p+12+n > len(data) {
			return nil
		}
		body := data[p+8 : p+8+n]
		switch typ {
		case "iCCP":
			i := bytes.IndexByte(body, 0)
			if i < 0 || i+2 > len(body) || body[i+1] != 0 {
				return nil
			}
			zr, err := zlib.NewReader(bytes.NewReader(body[i+2:]))
			if err != nil {
				return nil
			}
			prof, err := io.ReadAll(io.LimitReader(zr, maxICC+1))
			if err != nil || len(prof) > maxICC {
				return nil
			}
			return prof
		case "IDAT", "IEND":
			return nil // iCCP comes before the image data
		}
		p += 12 + n
	}
	return nil
}

// jpegICC joins the APP2 ICC_PROFILE segments in their sequence order.
func jpegICC(data []byte) []byte {
	type part struct {
		seq  byte
		data []byte
	}
	var parts []part
	p := 2
	for p+4 <= len(data) && data[p] == 0xFF {
		marker := data[p+1]
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			break
		}
		n := int(binary.BigEndian.Uint16(data[p+2:]))
		if n < 2 || p+2+n > len(data) {
			break
		}
		seg := data[p+4 : p+2+n]
		if marker == 0xE2 && len(seg) > 14 && bytes.HasPrefix(seg, []byte("ICC_PROFILE\x00")) {
			parts = append(parts, part{seg[12], seg[14:]})
		}
		p += 2 + n
	}
	if len(parts) == 0 {
		return nil
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].seq < parts[j].seq })
	var out []byte
	for _, pt := range parts {
		out = append(out, pt.data...)
		if len(out) > maxICC {
			return nil
		}
	}
	return out
}

// withPNGICC inserts an iCCP chunk holding icc after the IHDR chunk of an
// encoded PNG; nil icc leaves the file as it is.
func withPNGICC(data, icc []byte) []byte {
	if len(icc) == 0 || !bytes.HasPrefix(data, pngSignature) {
		return data
	}
	var body bytes.Buffer
	body.WriteString("icc\x00\x00")
	zw := zlib.NewWriter(&body)
	_, _ = zw.Write(icc)
	_ = zw.Close()
	chunk := make([]byte, 8, 12+body.Len())
	binary.BigEndian.PutUint32(chunk, uint32(body.Len()))
	copy(chunk[4:], "iCCP")
	chunk = append(chunk, body.Bytes()...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	ihdrEnd := len(pngSignature) + 12 + int(binary.BigEndian.Uint32(data[len(pngSignature):]))
	out := make([]byte, 0, len(data)+len(chunk))
	out = append(out, data[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, data[ihdrEnd:]...)
}

// withJPEGICC inserts APP2 ICC_PROFILE segments holding icc after the SOI
// marker of an encoded JPEG; nil icc leaves the file as it is.
func withJPEGICC(data, icc []byte) []byte {
	if len(icc) == 0 || !bytes.HasPrefix(data, []byte{0xFF, 0xD8}) {
		return data
	}
	const room = 65535 - 2 - 14 // segment length field, ICC_PROFILE\0, seq, count
	count := (len(icc) + room - 1) / room
	if count > 255 {
		return data
	}
	out := append(make([]byte, 0, len(data)+len(icc)+count*18), 0xFF, 0xD8)
	for i := range count {
		chunk := icc[i*room : min(len(icc), (i+1)*room)]
		out = append(out, 0xFF, 0xE2)
		out = binary.BigEndian.AppendUint16(out, uint16(2+14+len(chunk)))
		out = append(out, "ICC_PROFILE\x00"...)
		out = append(out, byte(i+1), byte(count))
		out = append(out, chunk...)
	}
	return append(out, data[2:]...)
}
