package photoshoot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// TestAMarketplacePackshotNeverPastesThePhoto: a product photographed before
// a busy wall cannot be cut out; with a marketplace preset the shot is not
// made (a step error: output_not_produced, not charged) and says why,
// instead of the photo pasted whole as a rectangle on white; without a
// preset it is still laid down whole, as a print; a product on a plain
// sweep still gets its packshot.
func TestAMarketplacePackshotNeverPastesThePhoto(t *testing.T) {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(imgfam.Family()))
	require.NoError(t, r.Add(Family()))
	def, err := r.Lookup("photoshoot.create")
	require.NoError(t, err)

	busy := image.NewNRGBA(image.Rect(0, 0, 300, 300))
	plain := image.NewNRGBA(image.Rect(0, 0, 300, 300))
	for y := range 300 {
		for x := range 300 {
			c := color.NRGBA{30, 120, 60, 255}
			if (x/8)%2 == 0 {
				c = color.NRGBA{240, 200, 40, 255}
			}
			p := color.NRGBA{235, 235, 233, 255}
			if x > 90 && x < 210 && y > 60 && y < 250 {
				c, p = color.NRGBA{40, 60, 170, 255}, color.NRGBA{40, 60, 170, 255}
			}
			busy.SetNRGBA(x, y, c)
			plain.SetNRGBA(x, y, p)
		}
	}
	jobs := 0
	shoot := func(img image.Image, market string) error {
		jobs++ // each shot a job of its own: no product shared between them
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		in, err := def.Validate([]byte(`{"product":"file:p","background":"background:bg_studio_white",` +
			`"poses":["pose:ps_woman_front"],"marketplace":"` + market + `"}`))
		require.NoError(t, err)
		ctx := tasks.WithEnv(tasks.WithLoader(context.Background(), photoLoader(buf.Bytes())),
			tasks.Env{JobID: fmt.Sprintf("j_%d", jobs)})
		_, err = def.Runner.Step(ctx, in, 0)
		return err
	}
	for _, m := range []string{"amazon", "shopify", "zalando"} {
		err := shoot(busy, m)
		var se *tasks.StepError
		require.True(t, errors.As(err, &se), "%s: %v", m, err)
		require.Contains(t, se.Message, "could not be cut out for the "+m+" packshot")
		require.Contains(t, se.Message, "the background cannot be separated")
		require.NoError(t, shoot(plain, m), m)
	}
	require.NoError(t, shoot(busy, marketplaceNone), "without a preset the photo is laid down whole")
}

// TestUpscaleTakesEveryShotCreateMakes: photoshoot.upscale takes at 2× the
// tallest shot photoshoot.create makes (Zalando's 1801 × 2600, step 5 of
// the catalogue_shoot recipe), and at 4× refuses a shot over 2048 px with
// the way out instead of making a 75 MP image.
func TestUpscaleTakesEveryShotCreateMakes(t *testing.T) {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(imgfam.Family()))
	require.NoError(t, r.Add(Family()))
	def, err := r.Lookup("photoshoot.upscale")
	require.NoError(t, err)
	zalando, _ := marketplaceOf("zalando")
	for _, m := range marketplaces {
		require.Empty(t, def.RefSides["images"].Check(m.w, m.h), m.value)
	}
	tall := image.NewNRGBA(image.Rect(0, 0, zalando.w, zalando.h))
	data, err := encodeJPEG(tall)
	require.NoError(t, err)
	in, err := def.Validate([]byte(`{"images":["art:shot1"],"factor":"4"}`))
	require.NoError(t, err)
	_, err = def.Runner.Step(tasks.WithLoader(context.Background(), photoLoader(data)), in, 0)
	var se *tasks.StepError
	require.True(t, errors.As(err, &se), "%v", err)
	require.Contains(t, se.Message, "factor 4 takes shots up to 2048 px a side: send factor 2")
}
