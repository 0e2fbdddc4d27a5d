package image

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

func registry(t testing.TB) *tasks.Registry {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(Family()))
	return r
}

func task(t testing.TB, name string) *tasks.Definition {
	d, err := registry(t).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, registry(t))
}

// files is a loader of test images by reference.
type files = taskstest.Files

// run validates body and runs every step, returning the outputs and the
// step errors by index.
func run(t testing.TB, name, body string, f files) ([]tasks.Output, map[int]error) {
	t.Helper()
	d := task(t, name)
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	// A JSON round trip, as the input takes through Temporal.
	raw, _ := json.Marshal(in)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	in, err = d.Input(fields)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), f)
	var out []tasks.Output
	errs := map[int]error{}
	for i := range d.Runner.Plan(in).Steps {
		start := time.Now()
		o, err := d.Runner.Step(ctx, in, i)
		t.Logf("%s output %d: %v", name, i, time.Since(start).Round(time.Millisecond))
		if err != nil {
			errs[i] = err
			continue
		}
		out = append(out, o)
	}
	return out, errs
}

func decode(t testing.TB, o tasks.Output) image.Image {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(o.Data))
	require.NoError(t, err)
	require.Equal(t, o.MediaType, "image/"+format)
	return img
}

func solid(w, h int, c color.Color) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	return img
}

func nrgba(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func TestResizeHasTheAskedDimensions(t *testing.T) {
	f := files{"file:a": pngBytes(solid(400, 300, color.NRGBA{200, 30, 30, 255}))}
	tests := []struct {
		body string
		w, h int
	}{
		{`"width":200,"height":200`, 200, 200},
		{`"width":200,"height":200,"fit":"cover"`, 200, 200},
		{`"width":250,"height":100,"fit":"fill"`, 250, 100},
		{`"width":100`, 100, 75},
		{`"height":150`, 200, 150},
		{`"resolution":"512"`, 512, 384},
		{``, 1024, 768},
		{`"width":800,"height":600,"format":"jpeg","quality":70`, 800, 600},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			body := `{"images":["file:a"]` + map[bool]string{true: "", false: "," + tc.body}[tc.body == ""] + `}`
			out, errs := run(t, "image.resize", body, f)
			require.Empty(t, errs)
			require.Len(t, out, 1)
			img := decode(t, out[0])
			require.Equal(t, tc.w, img.Bounds().Dx())
			require.Equal(t, tc.h, img.Bounds().Dy())
			require.Equal(t, tc.w, out[0].Meta["width"])
			require.Equal(t, tc.h, out[0].Meta["height"])
		})
	}
	// contain into a square: the image in the middle, transparent bands
	// above and below (or the background colour).
	out, _ := run(t, "image.resize", `{"images":["file:a"],"width":200,"height":200}`, f)
	img := decode(t, out[0])
	require.Equal(t, uint8(0), nrgba(img, 100, 5).A)
	require.Equal(t, color.NRGBA{200, 30, 30, 255}, nrgba(img, 100, 100))
	out, _ = run(t, "image.resize", `{"images":["file:a"],"width":200,"height":200,"background":"#00FF00"}`, f)
	require.Equal(t, color.NRGBA{0, 255, 0, 255}, nrgba(decode(t, out[0]), 100, 5))
}

// withOrientation inserts an EXIF APP1 segment with the orientation tag
// after the JPEG's SOI.
func withOrientation(jpg []byte, orientation uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2A")
	_ = binary.Write(&tiff, binary.BigEndian, uint32(8))
	_ = binary.Write(&tiff, binary.BigEndian, uint16(1))                                  // one entry
	_ = binary.Write(&tiff, binary.BigEndian, []uint16{0x0112, 3})                        // orientation, SHORT
	_ = binary.Write(&tiff, binary.BigEndian, uint32(1))                                  // count
	_ = binary.Write(&tiff, binary.BigEndian, []uint16{orientation, 0})                   // value
	_ = binary.Write(&tiff, binary.BigEndian, uint32(0))                                  // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)                                //
	head := []byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)} //
	return append(append(head, seg...), jpg[2:]...)
}

func TestResizeHonoursEXIFOrientation(t *testing.T) {
	// 400 × 200, left half red; orientation 6 means "rotate 90° clockwise
	// to display": upright it is 200 × 400 with the red half on top.
	src := solid(400, 200, color.NRGBA{255, 255, 255, 255})
	for y := range 200 {
		for x := range 200 {
			src.Set(x, y, color.NRGBA{220, 0, 0, 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95}))
	out, errs := run(
		t,
		"image.resize",
		`{"images":["file:a"],"width":100}`,
		files{"file:a": withOrientation(buf.Bytes(), 6)},
	)
	require.Empty(t, errs)
	img := decode(t, out[0])
	require.Equal(t, image.Pt(100, 200), img.Bounds().Size())
	require.Greater(t, nrgba(img, 50, 40).R, uint8(180))
	require.Less(t, nrgba(img, 50, 40).G, uint8(60), "the red half is on top")
	require.Greater(t, nrgba(img, 50, 160).G, uint8(200), "the white half below")
}

func TestResizeRefusesTooMuchUpscaling(t *testing.T) {
	d := task(t, "image.resize")
	in, err := d.Validate([]byte(`{"images":["file:small","file:big"],"width":1000}`))
	require.NoError(t, err, "without sizes the input is fine")
	e := d.Refuse(
		in,
		map[string]tasks.ImageSize{"file:small": {Width: 200, Height: 100}, "file:big": {Width: 800, Height: 600}},
	)
	require.NotNil(t, e)
	require.Equal(t, apierr.RequestRefused, e.Code)
	require.Equal(t, "width", *e.Field)
	require.Contains(t, e.Message, "images[0] (file:small)")
	require.Contains(t, e.Message, "5.0×")
	require.Nil(t, d.Refuse(in, map[string]tasks.ImageSize{"file:big": {Width: 800, Height: 600}}))

	in, err = d.Validate([]byte(`{"images":["file:small"],"resolution":"2048"}`))
	require.NoError(t, err)
	require.Equal(
		t,
		"resolution",
		*d.Refuse(in, map[string]tasks.ImageSize{"file:small": {Width: 300, Height: 100}}).Field,
	)
	in, err = d.Validate([]byte(`{"images":["file:small"],"width":100,"height":900,"fit":"cover"}`))
	require.NoError(t, err)
	require.Equal(t, "height", *d.Refuse(in, map[string]tasks.ImageSize{"file:small": {Width: 300, Height: 100}}).Field)

	// An image whose size is known only when the job runs: that output is
	// not produced, with the reason naming it.
	f := files{"file:small": pngBytes(solid(100, 50, color.White)), "file:ok": pngBytes(solid(400, 200, color.White))}
	out, errs := run(t, "image.resize", `{"images":["file:small","file:ok"],"width":800}`, f)
	require.Len(t, out, 1)
	var se *tasks.StepError
	require.True(t, errors.As(errs[0], &se))
	require.Equal(t, "processing_failed", se.Code)
	require.Contains(t, se.Message, "images[0] (file:small)")
	require.Contains(t, se.Message, "8.0×")
}

func TestResizeKeepsTheColourProfile(t *testing.T) {
	profile := bytes.Repeat([]byte("not a real profile, but carried byte for byte "), 2000) // > one JPEG segment
	src := withPNGICC(pngBytes(solid(64, 48, color.NRGBA{10, 120, 200, 255})), profile)
	require.Equal(t, profile, readICC(src))
	for _, format := range []string{"png", "jpeg"} {
		out, errs := run(
			t,
			"image.resize",
			`{"images":["file:p"],"width":32,"format":"`+format+`"}`,
			files{"file:p": src},
		)
		require.Empty(t, errs)
		require.Equal(t, profile, readICC(out[0].Data), format)
		decode(t, out[0])
	}
}

// spot is a dark, flat 600 × 200 image with one bright, detailed object
// near its right edge (x 500 to 580).
func spot() *image.NRGBA {
	img := solid(600, 200, color.NRGBA{30, 32, 36, 255})
	for y := 60; y < 140; y++ {
		for x := 500; x < 580; x++ {
			c := color.NRGBA{255, 220, 0, 255}
			if (x/8+y/8)%2 == 0 {
				c = color.NRGBA{255, 80, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func brightPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if nrgba(img, x, y).R > 200 {
				n++
			}
		}
	}
	return n
}

func TestAttentionCropKeepsTheBrightObject(t *testing.T) {
	f := files{"file:s": pngBytes(spot())}
	out, errs := run(t, "image.crop", `{"images":["file:s"],"aspect_ratio":"1:1","anchor":"attention"}`, f)
	require.Empty(t, errs)
	img := decode(t, out[0])
	require.Equal(t, image.Pt(200, 200), img.Bounds().Size())
	require.Equal(t, 80*80, brightPixels(img), "the whole object is in the crop (x=%v)", out[0].Meta["x"])

	out, _ = run(t, "image.crop", `{"images":["file:s"],"aspect_ratio":"1:1","anchor":"centre"}`, f)
	require.Equal(t, 200, out[0].Meta["x"])
	require.Zero(t, brightPixels(decode(t, out[0])), "the centre crop misses it")

	for _, a := range aspectRatios {
		out, _ := run(
			t,
			"image.crop",
			fmt.Sprintf(`{"images":["file:s"],"aspect_ratio":%q,"format":"jpeg"}`, a.value),
			f,
		)
		size := decode(t, out[0]).Bounds().Size()
		require.InDelta(t, float64(a.w)/float64(a.h), float64(size.X)/float64(size.Y), 0.01, a.value)
		require.True(t, size.X == 600 || size.Y == 200, "the largest crop of %s: %v", a.value, size)
	}
}

func TestRecolourMapsTwoColoursOntoThePalette(t *testing.T) {
	// Black on the left, white on the right, a soft vertical edge.
	src := solid(120, 80, color.White)
	for y := range 80 {
		for x := range 60 {
			src.Set(x, y, color.Black)
		}
	}
	out, errs := run(
		t,
		"image.recolour",
		`{"image":"file:bw","palette":["#F2C14E","#1F3A5F"]}`,
		files{"file:bw": pngBytes(src)},
	)
	require.Empty(t, errs)
	img := decode(t, out[0])
	near := func(got color.NRGBA, want string) {
		w := tasks.ParseColour(want)
		for _, d := range []int{int(got.R) - int(w.R), int(got.G) - int(w.G), int(got.B) - int(w.B)} {
			require.LessOrEqual(t, max(d, -d), 1, "%v is not %s", got, want)
		}
	}
	near(nrgba(img, 10, 10), "#1F3A5F")  // black → the dark colour
	near(nrgba(img, 110, 70), "#F2C14E") // white → the light one
	mapping := out[0].Meta["mapping"].([]map[string]any)
	require.Len(t, mapping, 2)
	require.Equal(t, 0.5, mapping[0]["share"])

	// Shading survives: a grey ramp stays a ramp.
	ramp := image.NewNRGBA(image.Rect(0, 0, 64, 16))
	for x := range 64 {
		for y := range 16 {
			ramp.Set(x, y, color.Gray{uint8(64 + x*2)})
		}
	}
	out, _ = run(
		t,
		"image.recolour",
		`{"image":"file:g","palette":["#2E7D32"],"format":"jpeg"}`,
		files{"file:g": pngBytes(ramp)},
	)
	img = decode(t, out[0])
	left, right := labOf(img.At(2, 4)), labOf(img.At(61, 4))
	require.Greater(t, right.L-left.L, 20.0, "lighter pixels stay lighter")
	require.Less(t, left.A, -10.0, "and turn green")
}

func TestValidationCodes(t *testing.T) {
	nine := `["file:a","file:a","file:a","file:a","file:a","file:a","file:a","file:a","file:a"]`
	tests := []struct {
		task, body string
		code       apierr.Code
		field      string
	}{
		{"image.resize", `{"width":10}`, apierr.ImagesRequired, "images"},
		{"image.resize", `{"images":[]}`, apierr.ImagesRequired, "images"},
		{"image.crop", `{"images":` + nine + `}`, apierr.TooManyImages, "images"},
		{"image.remove_background", `{"images":["ftp://x"]}`, apierr.InvalidRequest, "images[0]"},
		{"image.resize", `{"images":["file:a"],"quality":50}`, apierr.FieldNotSupported, "quality"},
		{"image.resize", `{"images":["file:a"],"fit":"stretch"}`, apierr.InvalidOption, "fit"},
		{"image.crop", `{"images":["file:a"],"aspect_ratio":"5:4"}`, apierr.InvalidOption, "aspect_ratio"},
		{
			"image.recolour",
			`{"image":"file:a","palette":["#000000","#111111","#222222","#333333","#444444","#555555","#666666","#777777",` +
				`"#888888"]}`,
			apierr.TooManyColours,
			"palette",
		},
		{"image.recolour", `{"image":"file:a","palette":["red"]}`, apierr.InvalidColour, "palette[0]"},
		{"image.recolour", `{"image":"file:a","palette":["#000000"],"format":"jpeg","quality":80}`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := task(t, tc.task).Validate([]byte(tc.body))
			if tc.code == "" {
				require.NoError(t, err)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

func TestExamplesSendRealFiles(t *testing.T) {
	for _, f := range []tasks.ExampleFile{productFile, sceneFile, printFile} {
		img, format, err := image.Decode(bytes.NewReader(f.Data()))
		require.NoError(t, err)
		require.Equal(t, f.MediaType, "image/"+format)
		require.NotZero(t, img.Bounds().Dx())
	}
	// The example cut-out is a real cut-out: corners clear, bottle opaque.
	out, err := task(t, "image.remove_background").ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(out[0].Data))
	require.NoError(t, err)
	require.Equal(t, uint8(0), nrgba(img, 2, 2).A)
	require.Equal(t, uint8(255), nrgba(img, 240, 200).A, "the label, enclosed by the bottle, stays")
	require.Equal(t, uint8(255), nrgba(img, 240, 130).A)
}

// photo is a w × h test photo: the scene example scaled up, as a JPEG.
func photo(w, h int) []byte {
	src := exampleScene()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, src.At(x*src.Rect.Dx()/w, y*src.Rect.Dy()/h))
		}
	}
	return jpegBytes(img)
}

// BenchmarkOutputs measures one output of each task on a 12-megapixel
// photo (4000 × 3000), as a job's step runs it.
func BenchmarkOutputs(b *testing.B) {
	f := files{"file:p": photo(4000, 3000), "file:c": func() []byte {
		img := solid(2000, 2000, color.White)
		for y := 500; y < 1500; y++ {
			for x := 600; x < 1400; x++ {
				img.Set(x, y, color.NRGBA{30, 90, 160, 255})
			}
		}
		return pngBytes(img)
	}()}
	for _, c := range []struct{ name, task, body string }{
		{"resize_12MP_to_1024_jpeg", "image.resize", `{"images":["file:p"],"resolution":"1024","format":"jpeg"}`},
		{"crop_12MP_attention", "image.crop", `{"images":["file:p"],"aspect_ratio":"4:5"}`},
		{"remove_background_4MP", "image.remove_background", `{"images":["file:c"]}`},
		{"recolour_12MP_3_colours", "image.recolour", `{"image":"file:p","palette":["#1F3A5F","#F2C14E","#E8E2D0"],` +
			`"format":"jpeg"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			d := task(b, c.task)
			in, err := d.Validate([]byte(c.body))
			require.NoError(b, err)
			ctx := tasks.WithLoader(context.Background(), f)
			for b.Loop() {
				_, err := d.Runner.Step(ctx, in, 0)
				require.NoError(b, err)
			}
		})
	}
}
