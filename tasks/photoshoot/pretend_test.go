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

	"github.com/taskplatform/taskplatform/apierr"
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

// TestAnUncuttablePackshotIsRefusedAtSubmit: the same busy photo, stored,
// is refused at submit (an estimate runs the same check) with a
// request_refused naming the image and the reason, so no job is made and
// nothing is held; a product on a plain sweep, a transparent PNG, a preset
// of none and an image the submit cannot read (no loader) are admitted.
func TestAnUncuttablePackshotIsRefusedAtSubmit(t *testing.T) {
	busy, plain := image.NewNRGBA(image.Rect(0, 0, 1200, 900)), image.NewNRGBA(image.Rect(0, 0, 1200, 900))
	cut := image.NewNRGBA(image.Rect(0, 0, 1200, 900)) // transparent around the product
	for y := range 900 {
		for x := range 1200 {
			c := color.NRGBA{30, 120, 60, 255}
			if (x/16+y/23)%2 == 0 {
				c = color.NRGBA{240, 200, 40, 255}
			}
			p, q := color.NRGBA{235, 235, 233, 255}, color.NRGBA{}
			if x > 400 && x < 800 && y > 200 && y < 800 {
				c, p, q = color.NRGBA{40, 60, 170, 255}, color.NRGBA{40, 60, 170, 255}, color.NRGBA{40, 60, 170, 255}
			}
			busy.SetNRGBA(x, y, c)
			plain.SetNRGBA(x, y, p)
			cut.SetNRGBA(x, y, q)
		}
	}
	admit := func(img image.Image, market string, loader bool) error {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		ctx := context.Background()
		if loader {
			ctx = tasks.WithLoader(ctx, photoLoader(buf.Bytes()))
		}
		in := &createInput{Product: "file:p", Background: "#FFFFFF", Marketplace: market}
		return createRunner{}.Admit(ctx, tasks.Env{DryRun: true}, in)
	}
	for _, m := range []string{"amazon", "shopify", "zalando"} {
		e := apierr.As(admit(busy, m, true))
		require.NotNil(t, e, m)
		require.Equal(t, apierr.RequestRefused, e.Code, m)
		require.Equal(t, "product", *e.Field, m)
		require.Contains(t, e.Message, "file:p")
		require.Contains(t, e.Message, "the background cannot be separated", m)
		require.NoError(t, admit(plain, m, true), m)
		require.NoError(t, admit(cut, m, true), m)
		require.NoError(t, admit(busy, m, false), "%s: unread at submit, left to the step", m)
	}
	require.NoError(t, admit(busy, marketplaceNone, true))
}

// BenchmarkCutCheckAtSubmit is the time the submit's check adds to a
// packshot of a 12 MP JPEG: decoding it and cutting out a 256 px copy.
func BenchmarkCutCheckAtSubmit(b *testing.B) {
	img := image.NewNRGBA(image.Rect(0, 0, 4000, 3000))
	for y := range 3000 {
		for x := range 4000 {
			c := color.NRGBA{30, 120, 60, 255}
			if (x/40+y/57)%2 == 0 {
				c = color.NRGBA{240, 200, 40, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	data, err := encodeJPEG(img)
	require.NoError(b, err)
	ctx := tasks.WithLoader(context.Background(), photoLoader(data))
	in := &createInput{Product: "file:p", Background: "#FFFFFF", Marketplace: "amazon"}
	b.ResetTimer()
	for range b.N {
		require.Error(b, refuseUncuttable(ctx, in))
	}
}
