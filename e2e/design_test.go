package e2e_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// withPNGText adds a tEXt chunk (keyword, text) after a PNG's header, as
// photo tools write titles and descriptions.
func withPNGText(data []byte, keyword, text string) []byte {
	body := append([]byte(keyword+"\x00"), text...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	chunk = append(append(chunk, "tEXt"...), body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return bytes.Join([][]byte{data[:33], chunk, data[33:]}, nil)
}

// TestDesignFromPromptThroughTheAPI draws red and white stripes from a
// brief; refuses a trademark at submit, a blank prompt, too many
// references and briefs it cannot read; and fails a job whose reference names a refused term in its
// embedded text with content_refused, charging nothing.
func TestDesignFromPromptThroughTheAPI(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})

	res := s.do(
		http.MethodPost,
		"/v1/tasks/design.from_prompt",
		map[string]any{"prompt": "red and white stripes", "resolution": "512"},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 1)
	colours := map[color.NRGBA]int{}
	for y := range 512 {
		row := rgbaAt(imgs[0], 0, y)
		require.Equal(t, row, rgbaAt(imgs[0], 511, y), "row %d is one band", y)
		colours[row]++
	}
	red, white := color.NRGBA{0xE0, 0x26, 0x1B, 255}, color.NRGBA{0xFA, 0xFA, 0xF7, 255}
	require.Greater(t, colours[red], 512/10, "colour_name red shows")
	require.Greater(t, colours[white], 512/10, "colour_name white shows")
	for c, rows := range colours {
		if c == red || c == white {
			continue
		}
		// An anti-aliased band edge between pixels: a row of red and white
		// mixed, a few rows in all.
		require.LessOrEqual(t, rows, 8, "%v is only an edge row", c)
		require.True(t, c.G >= red.G && c.G <= white.G && c.B >= red.B && c.B <= white.B, "%v mixes red and white", c)
	}
	reading := data[0]["reading"].(map[string]any)
	require.Equal(t, "stripes", reading["kind"])
	require.Equal(t, int64(100-2), s.balance(), "one 512 px tile")

	s.refuses("design.from_prompt", map[string]any{"prompt": "Gucci red stripes"}, "content_refused", "prompt")
	s.refuses("design.from_prompt", map[string]any{"prompt": "   "}, "prompt_required", "prompt")
	s.refuses("design.from_prompt", map[string]any{}, "prompt_required", "prompt")
	ref := s.upload("plain.png", pngOf(t, fill(64, 64, color.NRGBA{200, 180, 150, 255}, image.Rectangle{}, nil)))
	s.refuses(
		"design.from_prompt",
		map[string]any{"prompt": "red checks", "references": []string{ref, ref, ref, ref, ref}},
		"too_many_references",
		"references",
	)
	// Briefs it cannot read are refused at submit, not drawn as something
	// else: a motif no kind draws, or no kind amid unread words.
	s.refuses("design.from_prompt", map[string]any{"prompt": "ditsy floral in dusty rose and sage green"},
		"request_refused", "prompt")
	s.refuses("design.from_prompt", map[string]any{"prompt": "something summery in sage green"},
		"request_refused", "prompt")
	require.Equal(t, int64(100-2), s.balance(), "refused submits hold nothing")

	marked := s.upload(
		"check.png",
		withPNGText(
			pngOf(t, fill(64, 64, color.NRGBA{200, 180, 150, 255}, image.Rectangle{}, nil)),
			"Title",
			"Burberry check swatch",
		),
	)
	id := s.accepted(
		"design.from_prompt",
		map[string]any{"prompt": "checks", "references": []string{marked}, "resolution": "512"},
	)
	job := s.waitTerminal(id)
	require.Equal(t, "failed", job["outcome"])
	e := job["error"].(map[string]any)
	require.Equal(t, "content_refused", e["code"])
	require.Contains(t, e["message"], "references[0]")
	require.Equal(t, int64(100-2), s.balance(), "a refused job is not charged")
}

// TestColourWorkThroughTheAPI separates an upload into inks whose measured
// coverage adds up to 100 %, refuses more than 12 colours, and makes a
// colourway per palette in the order sent.
func TestColourWorkThroughTheAPI(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	design := s.upload(
		"design.png",
		pngOf(
			t,
			fill(
				200,
				100,
				color.NRGBA{0xF4, 0xEC, 0xD6, 255},
				image.Rect(0, 0, 50, 100),
				color.NRGBA{0x1B, 0x2A, 0x4A, 255},
			),
		),
	)

	res := s.do(
		http.MethodPost,
		"/v1/tasks/colour.separate",
		map[string]any{"image": design, "max_colours": 2},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 3, "the composite and two separations")
	require.Equal(t, "composite", data[0]["kind"])
	total := 0.0
	for i, film := range imgs[1:] {
		ink, m := 0, int(data[i+1]["margin_px"].(float64)) // the design sits inside the film's margin
		for y := range 100 {
			for x := range 200 {
				if color.GrayModel.Convert(film.At(x+m, y+m)).(color.Gray).Y == 0 {
					ink++
				}
			}
		}
		total += float64(ink) / 200
		require.InDelta(t, data[i+1]["coverage"].(float64), float64(ink)/200, 0.01)
	}
	require.InDelta(t, 100, total, 0.01)
	require.Equal(t, "#F4ECD6", data[1]["hex"], "light to dark: the cream ground first")
	require.Equal(t, rgbaAt(imgs[0], 10, 10), color.NRGBA{0x1B, 0x2A, 0x4A, 255}, "the composite lays navy back")
	s.refuses("colour.separate", map[string]any{"image": design, "max_colours": 13}, "too_many_colours", "max_colours")

	res = s.do(http.MethodPost, "/v1/tasks/colourway.generate", map[string]any{"image": design,
		"palettes": [][]string{{"#FFFFFF", "#C8102E"}, {"#1B2A4A", "#E8B4B0"}}}, "Prefer", "wait=60")
	imgs, _ = outputImages(t, res)
	require.Len(t, imgs, 2)
	require.Equal(t, color.NRGBA{0xC8, 0x10, 0x2E, 255}, rgbaAt(imgs[0], 10, 10), "navy becomes the darker red")
	require.Equal(t, color.NRGBA{0xFF, 0xFF, 0xFF, 255}, rgbaAt(imgs[0], 150, 10), "cream becomes white")
	require.Equal(t, color.NRGBA{0x1B, 0x2A, 0x4A, 255}, rgbaAt(imgs[1], 10, 10))
	require.Equal(t, color.NRGBA{0xE8, 0xB4, 0xB0, 255}, rgbaAt(imgs[1], 150, 10))
}
