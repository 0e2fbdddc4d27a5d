package imagefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// pngHeader is a PNG that declares a w × h image of the given bit depth,
// colour type and interlace method and holds no pixels: 57 bytes, like the
// 69-byte PNG that declared 60000 × 60000 px and took a worker down.
func pngHeader(w, h uint32, depth, colourType, interlace byte) []byte {
	chunk := func(kind string, data []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		out = append(append(out, kind...), data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colourType, 0, 0, interlace)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", ihdr)...)
	out = append(out, chunk("IDAT", nil)...)
	return append(out, chunk("IEND", nil)...)
}

// jpegHeader is the headers of a JPEG that declares a w × h image of three
// components at the given sampling factors (0x11 each for 4:4:4; 0x22,
// 0x11, 0x11 for 4:2:0) in a baseline (SOF0) or progressive (SOF2) frame.
func jpegHeader(w, h uint16, progressive bool, sampling ...byte) []byte {
	marker := byte(0xC0)
	if progressive {
		marker = 0xC2
	}
	seg := []byte{8}
	seg = binary.BigEndian.AppendUint16(seg, h)
	seg = binary.BigEndian.AppendUint16(seg, w)
	seg = append(seg, byte(len(sampling)))
	for i, s := range sampling {
		seg = append(seg, byte(i+1), s, 0)
	}
	out := []byte{0xFF, 0xD8, 0xFF, marker}
	out = binary.BigEndian.AppendUint16(out, uint16(len(seg)+2))
	return append(append(out, seg...), 0xFF, 0xDA, 0, 2) // the scan's header, where reading the config ends
}

// TestHeadersAreCheckedAgainstTheBudget: the size, bit depth and encoding
// of an image are read from its header and weighed against the budget —
// a few dozen bytes that declare 60000 × 60000 px, 16-bit PNGs, interlaced
// PNGs and progressive JPEGs — while ordinary photos pass.
func TestHeadersAreCheckedAgainstTheBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		data   []byte
		bytes  int64  // the decoder's memory
		reason string // "" when within the budget
	}{
		{"a few bytes declaring 60000 px a side", pngHeader(60000, 60000, 8, 6, 0), 60000 * 60000 * 4,
			"the image is 60000 × 60000 px (3600.0 megapixels); at most 40 megapixels are read"},
		{"16-bit bomb", pngHeader(30000, 30000, 16, 6, 0), 30000 * 30000 * 8,
			"the image is 30000 × 30000 px (900.0 megapixels); at most 40 megapixels are read"},
		{"16-bit RGBA over the memory budget", pngHeader(6000, 6000, 16, 6, 0), 6000 * 6000 * 8,
			"the image (6000 × 6000 px, 16-bit png) needs 275 MB to decode; at most 256 MB are taken — " +
				"send it smaller or with 8 bits a channel"},
		{"16-bit RGB within it", pngHeader(6000, 5000, 16, 2, 0), 6000 * 5000 * 8, ""},
		{"16-bit grey", pngHeader(6000, 6000, 16, 0, 0), 6000 * 6000 * 2, ""},
		{"8-bit RGBA at 36 megapixels", pngHeader(6000, 6000, 8, 6, 0), 6000 * 6000 * 4, ""},
		{"interlaced", pngHeader(6000, 6000, 8, 6, 1), 6000 * 6000 * 8,
			"the image (6000 × 6000 px, interlaced PNG) needs 275 MB to decode; at most 256 MB are taken — " +
				"send it smaller or not interlaced"},
		{"baseline 4:4:4 JPEG", jpegHeader(6000, 6000, false, 0x11, 0x11, 0x11), 6000 * 6000 * 3, ""},
		{"progressive 4:2:0 JPEG", jpegHeader(5000, 5000, true, 0x22, 0x11, 0x11), 5000 * 5000 * 9, ""},
		{"progressive 4:4:4 JPEG", jpegHeader(6000, 6000, true, 0x11, 0x11, 0x11), 6000 * 6000 * 15,
			"the image (6000 × 6000 px, progressive JPEG) needs 515 MB to decode; at most 256 MB are taken — " +
				"send it smaller or as a baseline JPEG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ReadHeader(tc.data)
			require.NoError(t, err)
			require.Equal(t, tc.bytes, h.DecodeBytes())
			e := h.Check()
			if tc.reason == "" {
				require.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			require.Equal(t, tc.reason, e.Reason)
		})
	}
	_, err := ReadHeader([]byte("not an image"))
	require.ErrorIs(t, err, ErrUnreadable)
	require.Nil(t, CheckSize(6000, 6000))
	require.NotNil(t, CheckSize(8000, 6000), "48 megapixels")
}

// TestABombIsRefusedBeforeItsPixels: Decode and Reduce refuse an image
// over the budget from its header, allocating next to nothing — no
// 14 GB canvas for a PNG of a few dozen bytes.
func TestABombIsRefusedBeforeItsPixels(t *testing.T) {
	bombs := [][]byte{
		pngHeader(60000, 60000, 8, 6, 0),
		pngHeader(30000, 30000, 16, 6, 0),
		pngHeader(6000, 6000, 16, 6, 0),
		jpegHeader(6000, 6000, true, 0x11, 0x11, 0x11),
	}
	for _, bomb := range bombs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(bomb)
		var be *BudgetError
		require.True(t, errors.As(err, &be), "refused for its size: %v", err)
		_, err = Reduce(bomb, func(image.Image) int { t.Fatal("a bomb is never decoded"); return 0 })
		require.True(t, errors.As(err, &be), "refused for its size: %v", err)
		runtime.ReadMemStats(&after)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "allocated before refusing")
	}
}

// TestReduceReleasesTheFullImage: images within the budget decode, and
// Reduce counts the full-size images it holds at once.
func TestReduceReleasesTheFullImage(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for i := range src.Pix {
		src.Pix[i] = uint8(i)
	}
	var pb, jb bytes.Buffer
	require.NoError(t, png.Encode(&pb, src))
	require.NoError(t, jpeg.Encode(&jb, src, nil))

	img, err := Decode(pb.Bytes())
	require.NoError(t, err)
	require.Equal(t, src.Bounds(), img.Bounds())

	ResetPeak()
	before := ReadStats()
	var wg sync.WaitGroup
	release := make(chan struct{})
	held := make(chan struct{}, 2)
	for range 2 {
		wg.Go(func() {
			size, err := Reduce(jb.Bytes(), func(full image.Image) image.Point {
				held <- struct{}{}
				<-release
				return full.Bounds().Size()
			})
			require.NoError(t, err)
			require.Equal(t, image.Pt(64, 48), size)
		})
	}
	<-held
	<-held
	require.EqualValues(t, 2, ReadStats().Alive, "two full-size images held at once")
	close(release)
	wg.Wait()
	after := ReadStats()
	require.Zero(t, after.Alive, "released")
	require.EqualValues(t, 2, after.PeakAlive)
	require.Equal(t, before.Reductions+2, after.Reductions)
	require.Equal(t, before.Decodes, after.Decodes)
	_, err = Reduce([]byte("not an image"), func(image.Image) color.Color { return nil })
	require.ErrorIs(t, err, ErrUnreadable)
}
