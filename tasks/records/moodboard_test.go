package records

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// TestAMoodboardHoldsOneFullSizeImageAtATime: a board of 24 large photos
// (the most it takes) is drawn and analysed reading one photo at a time —
// each decoded at full size, drawn and measured, and released before the
// next — so a step holds one full-size image at most, not 24 (14 boards of
// 24 uploads took workers down when every photo was decoded at once).
func TestAMoodboardHoldsOneFullSizeImageAtATime(t *testing.T) {
	const w, h = 1280, 960 // larger than a stored look (1200 px a side), so every step scales
	files := taskstest.Files{}
	var refs []string
	for i := range maxBoardImages {
		img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
		for j := range img.Y {
			img.Y[j] = uint8(j/w*255/h + i)
		}
		for j := range img.Cb {
			img.Cb[j], img.Cr[j] = uint8(40+i*8), uint8(200-i*6)
		}
		var buf bytes.Buffer
		require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}))
		ref := fmt.Sprintf("file:photo%d", i)
		files[ref] = buf.Bytes()
		refs = append(refs, ref)
	}
	body, err := json.Marshal(map[string]any{"name": "Large photos", "images": refs})
	require.NoError(t, err)
	d := mustLookup(t, "moodboard.create")
	in, err := d.Validate(body)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), files)

	imagefile.ResetPeak()
	before := imagefile.ReadStats()
	collage, err := d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	sheet, err := d.Runner.Step(ctx, in, 1)
	require.NoError(t, err)
	after := imagefile.ReadStats()
	require.Equal(t, before.Reductions+2*maxBoardImages, after.Reductions, "every photo is read once per output")
	require.Equal(t, before.Decodes, after.Decodes, "no photo is kept at full size")
	require.EqualValues(t, 1, after.PeakAlive, "one full-size photo at a time")

	img, err := jpeg.Decode(bytes.NewReader(collage.Data))
	require.NoError(t, err)
	require.Equal(t, 1800, img.Bounds().Dx(), "the collage")
	looks := sheet.Meta["looks"].([]any)
	require.Len(t, looks, maxBoardImages, "a look per photo")
	first, last := looks[0].(map[string]any), looks[maxBoardImages-1].(map[string]any)
	require.NotEqual(t, first["dominant_colours"], last["dominant_colours"], "each look is its own photo's")
}
