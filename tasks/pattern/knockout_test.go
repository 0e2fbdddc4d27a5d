package pattern

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// jpegMotif is a red bar 120 × 40 px in the middle of a 200 × 200 white
// photo, saved as JPEG quality 85: a motif as a designer exports it.
func jpegMotif(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 200, 200))
	for y := range 200 {
		for x := range 200 {
			c := color.NRGBA{255, 255, 255, 255}
			if x >= 40 && x < 160 && y >= 80 && y < 120 {
				c = color.NRGBA{200, 30, 40, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}))
	return buf.Bytes()
}

// repeatTile runs pattern.repeat on the motif and decodes its first tile.
func repeatTile(t *testing.T, body string, motif []byte) (image.Image, map[string]any) {
	d := Family().Tasks[0]
	for _, x := range Family().Tasks {
		if x.Name == "pattern.repeat" {
			d = x
		}
	}
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), taskstest.Files{"file:m": motif})
	out, err := d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	b, _ := json.Marshal(out.Meta)
	var meta map[string]any
	require.NoError(t, json.Unmarshal(b, &meta))
	return img, meta
}

// whiteShare is the share of the tile's pixels within 10 of white.
func whiteShare(img image.Image) float64 {
	n, b := 0, img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 245 && g>>8 > 245 && bl>>8 > 245 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

// TestJPEGMotifOnWhiteIsKnockedOut: a JPEG bar on white repeated on navy
// leaves no white box (under 0.5 % of the tile near white; 36 % with
// knockout false), and the data says the white backdrop was removed.
func TestJPEGMotifOnWhiteIsKnockedOut(t *testing.T) {
	motif := jpegMotif(t)
	tile, meta := repeatTile(t, `{"image":"file:m","layouts":["grid"],"resolution":"512","background":"#1B2A4A"}`, motif)
	require.Equal(t, "removed", meta["knockout"])
	require.Equal(t, "#FFFFFF", meta["backdrop"])
	require.Less(t, whiteShare(tile), 0.005)

	kept, meta := repeatTile(t,
		`{"image":"file:m","layouts":["grid"],"resolution":"512","background":"#1B2A4A","knockout":false}`, motif)
	require.Equal(t, "off", meta["knockout"])
	require.Greater(t, whiteShare(kept), 0.3, "the white boxes stay when asked")
}

// TestRotationAndTossTurnTheCopies: rotation 90 stands the bar upright
// (taller than wide around the first copy's centre); toss turns the four
// copies by different angles, so the copies' footprints differ.
func TestRotationAndTossTurnTheCopies(t *testing.T) {
	motif := jpegMotif(t)
	base := `{"image":"file:m","layouts":["grid"],"resolution":"512","background":"#1B2A4A"`
	// extent is the red run through (cx, cy) across and down.
	extent := func(img image.Image, cx, cy int) (int, int) {
		red := func(x, y int) bool {
			r, g, _, _ := img.At(x, y).RGBA()
			return r>>8 > 150 && g>>8 < 100
		}
		w, h := 0, 0
		for x := cx - 128; x < cx+128; x++ {
			if red(x, cy) {
				w++
			}
		}
		for y := cy - 128; y < cy+128; y++ {
			if red(cx, y) {
				h++
			}
		}
		return w, h
	}
	flat, _ := repeatTile(t, base+`}`, motif)
	w, h := extent(flat, 128, 128)
	require.Greater(t, w, 2*h, "as sent the bar lies flat")
	up, _ := repeatTile(t, base+`,"rotation":90}`, motif)
	w, h = extent(up, 128, 128)
	require.Greater(t, h, 2*w, "turned 90 it stands up")

	tossed, _ := repeatTile(t, base+`,"toss":true}`, motif)
	var shapes [][2]int
	for _, c := range [][2]int{{128, 128}, {384, 128}, {128, 384}, {384, 384}} {
		w, h := extent(tossed, c[0], c[1])
		shapes = append(shapes, [2]int{w, h})
	}
	distinct := map[[2]int]bool{}
	for _, s := range shapes {
		distinct[[2]int{int(math.Round(float64(s[0]) / 8)), int(math.Round(float64(s[1]) / 8))}] = true
	}
	require.GreaterOrEqual(t, len(distinct), 3, "the copies are turned differently: %v", shapes)
}

// spacing sets the gap a designer measures between copies: a 2:1 red
// block laid out in a grid on navy with spacing 56 leaves 56 px of navy
// between copies across (the block's long side) and the rest of the cell
// down; the data says both; a spacing with no room for the motif is
// refused naming spacing.
func TestSpacingIsTheGapBetweenCopies(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 100, 50))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:i+4], []uint8{200, 30, 40, 255})
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	// gaps are the lengths of the navy runs between red runs along a line.
	gaps := func(tile image.Image, across bool, at int) []int {
		var out []int
		run, seenRed := 0, false
		for p := range 512 {
			x, y := p, at
			if !across {
				x, y = at, p
			}
			r, _, _, _ := tile.At(x, y).RGBA()
			if r>>8 > 100 {
				if seenRed && run > 0 {
					out = append(out, run)
				}
				seenRed, run = true, 0
			} else if seenRed {
				run++
			}
		}
		return out
	}
	for _, sp := range []int{0, 56, 120} {
		body := fmt.Sprintf(`{"image":"file:m","layouts":["grid"],"resolution":"512","background":"#1B2A4A",`+
			`"knockout":false,"spacing":%d}`, sp)
		tile, meta := repeatTile(t, body, buf.Bytes())
		long, short := 256-sp, (256-sp)/2
		require.Equal(t, map[string]any{"across": float64(256 - long), "down": float64(256 - short)}, meta["gap_px"])
		across, down := gaps(tile, true, 128), gaps(tile, false, 128)
		if sp == 0 {
			require.Empty(t, across, "copies edge to edge leave no navy between them")
			continue
		}
		require.Len(t, across, 1, "two copies across, one gap")
		require.InDelta(t, sp, across[0], 1, "gap across")
		require.Len(t, down, 1)
		require.InDelta(t, 256-short, down[0], 1, "gap down")
	}
	d := mustLookup(t, "pattern.repeat")
	_, err := d.Validate([]byte(`{"image":"file:m","resolution":"512","spacing":249}`))
	var e *apierr.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, apierr.RequestRefused, e.Code)
	require.Contains(t, e.Message, "at most 248")
	_, err = d.Validate([]byte(`{"image":"file:m","resolution":"1024","spacing":249}`))
	require.NoError(t, err)
}
