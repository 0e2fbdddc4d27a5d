package imagefile

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// withEXIF puts an APP1 EXIF segment holding orientation o (with a tag
// before it) right after a JPEG's SOI marker.
func withEXIF(jpg []byte, o uint16, order binary.AppendByteOrder) []byte {
	tiff := []byte("MM")
	if order == binary.LittleEndian {
		tiff = []byte("II")
	}
	tiff = order.AppendUint16(tiff, 42)
	tiff = order.AppendUint32(tiff, 8)
	tiff = order.AppendUint16(tiff, 2) // two entries
	tiff = order.AppendUint16(tiff, 0x010F)
	tiff = append(tiff, make([]byte, 10)...)
	tiff = order.AppendUint16(tiff, 0x0112)
	tiff = order.AppendUint16(tiff, 3) // SHORT
	tiff = order.AppendUint32(tiff, 1)
	tiff = order.AppendUint16(tiff, o)
	tiff = append(tiff, 0, 0)
	body := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xFF, 0xE1}
	seg = binary.BigEndian.AppendUint16(seg, uint16(len(body)+2))
	seg = append(seg, body...)
	return append(append(append([]byte{}, jpg[:2]...), seg...), jpg[2:]...)
}

// Decode gives imaging.Decode's pixels with AutoOrientation, for every
// orientation in either byte order, for a JPEG without EXIF and a PNG.
func TestDecodeIsImagingsAutoOrientation(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 24, 16))
	for y := range 16 {
		for x := range 24 {
			src.SetNRGBA(x, y, color.NRGBA{uint8(x * 10), uint8(y * 15), 90, 255})
		}
	}
	var jb, pb bytes.Buffer
	require.NoError(t, jpeg.Encode(&jb, src, &jpeg.Options{Quality: 95}))
	require.NoError(t, png.Encode(&pb, src))
	files := [][]byte{jb.Bytes(), pb.Bytes()}
	for o := uint16(0); o <= 9; o++ {
		for _, order := range []binary.AppendByteOrder{binary.BigEndian, binary.LittleEndian} {
			files = append(files, withEXIF(jb.Bytes(), o, order))
		}
	}
	for i, data := range files {
		want, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
		require.NoError(t, err)
		got, err := Decode(data)
		require.NoError(t, err)
		require.Equal(t, want.Bounds(), got.Bounds(), "file %d", i)
		require.Equal(t, imaging.Clone(want).Pix, imaging.Clone(got).Pix, "file %d", i)
	}
	require.Equal(t, 6, Orientation(withEXIF(jb.Bytes(), 6, binary.LittleEndian)))
	require.Zero(t, Orientation(jb.Bytes()))
	_, err := Decode([]byte("not an image"))
	require.Error(t, err)
}
