package production

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/png"
	"math"

	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// pngEncoder writes print files: fast compression, as they are large.
var pngEncoder = pngenc.Encoder(png.BestSpeed)

// pngSignature starts every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// ppm is dpi in pixels per metre, as the pHYs chunk records it.
func ppm(dpi int) uint32 { return uint32(math.Round(float64(dpi) / 0.0254)) }

// withPHYs inserts a pHYs chunk (PNG 1.2 §4.2.4.2: pixels per unit on X
// and Y, unit 1 = metre) after the IHDR chunk of a PNG that has none.
func withPHYs(data []byte, dpi int) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4
	if len(data) < ihdrEnd || !bytes.HasPrefix(data, pngSignature) || string(data[12:16]) != "IHDR" {
		return nil, errors.New("png: no IHDR chunk")
	}
	body := make([]byte, 9)
	binary.BigEndian.PutUint32(body[0:4], ppm(dpi))
	binary.BigEndian.PutUint32(body[4:8], ppm(dpi))
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
