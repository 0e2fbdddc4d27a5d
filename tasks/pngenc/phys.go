package pngenc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
)

// signature starts every PNG file.
var signature = []byte("\x89PNG\r\n\x1a\n")

// PixelsPerMetre is dpi as a pHYs chunk records it: dpi / 0.0254, rounded.
func PixelsPerMetre(dpi int) uint32 { return uint32(math.Round(float64(dpi) / 0.0254)) }

// WithDPI inserts a pHYs chunk (PNG 1.2 §4.2.4.2: pixels per unit on X and
// Y, unit 1 = metre) giving dpi after the IHDR chunk of a PNG that has
// none, so layout and RIP software read the file's physical size.
func WithDPI(data []byte, dpi int) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4
	if len(data) < ihdrEnd || !bytes.HasPrefix(data, signature) || string(data[12:16]) != "IHDR" {
		return nil, errors.New("png: no IHDR chunk")
	}
	body := make([]byte, 9)
	binary.BigEndian.PutUint32(body[0:4], PixelsPerMetre(dpi))
	binary.BigEndian.PutUint32(body[4:8], PixelsPerMetre(dpi))
	body[8] = 1
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(body)))
	chunk = append(chunk, "pHYs"...)
	chunk = append(chunk, body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(data)+len(chunk))
	out = append(out, data[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, data[ihdrEnd:]...), nil
}
