package design

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pattern"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// registry holds the design family with the families whose vocabularies
// it reads (pattern_kind, colour_name).
func registry(t testing.TB) *tasks.Registry {
	r := tasks.NewRegistry()
	for _, f := range []tasks.Family{pattern.Family(), records.Family(), Family()} {
		require.NoError(t, r.Add(f))
	}
	return r
}

func task(t testing.TB) *tasks.Definition {
	d, err := registry(t).Lookup("design.from_prompt")
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	r := registry(t)
	d, err := r.Lookup("design.from_prompt")
	require.NoError(t, err)
	taskstest.CheckTask(t, d)
}

// files is a loader of test images by reference.
type files = taskstest.Files

// run validates body and runs every step: decoded tiles with their data,
// or the first step error.
func run(t testing.TB, body string, f files) ([]image.Image, []map[string]any, error) {
	t.Helper()
	d := task(t)
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	raw, _ := json.Marshal(in)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	in, err = d.Input(fields)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), f)
	var imgs []image.Image
	var data []map[string]any
	for i := range d.Runner.Plan(in).Steps {
		out, err := d.Runner.Step(ctx, in, i)
		if err != nil {
			return nil, nil, err
		}
		img, err := png.Decode(bytes.NewReader(out.Data))
		require.NoError(t, err)
		imgs = append(imgs, img)
		meta, _ := json.Marshal(out.Meta)
		var m map[string]any
		require.NoError(t, json.Unmarshal(meta, &m))
		data = append(data, m)
	}
	return imgs, data, nil
}

func rgb(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func hexOf(c color.NRGBA) string {
	return "#" + string(
		[]byte{
			hexDigit(c.R >> 4),
			hexDigit(c.R & 15),
			hexDigit(c.G >> 4),
			hexDigit(c.G & 15),
			hexDigit(c.B >> 4),
			hexDigit(c.B & 15),
		},
	)
}

func hexDigit(v uint8) byte { return "0123456789ABCDEF"[v] }

// TestRedAndWhiteStripes: "red and white stripes" draws horizontal bands
// in colour_name red and white only, both showing, each row one colour.
func TestRedAndWhiteStripes(t *testing.T) {
	names := map[string]string{}
	for _, c := range colour.Names() {
		names[c.Value] = c.Hex
	}
	imgs, data, err := run(t, `{"prompt":"Red and white stripes","resolution":"512","count":2}`, nil)
	require.NoError(t, err)
	require.Len(t, imgs, 2)
	for i, img := range imgs {
		require.Equal(t, image.Pt(512, 512), img.Bounds().Size())
		counts := map[string]int{}
		changes := 0
		for y := range 512 {
			row := rgb(img, 0, y)
			for x := range 512 {
				require.Equal(t, row, rgb(img, x, y), "tile %d: row %d is one colour: horizontal stripes", i, y)
			}
			counts[hexOf(row)] += 512
			if y > 0 && rgb(img, 0, y-1) != row {
				changes++
			}
		}
		// Red and white, and at band edges that fall between pixels a blend
		// of the two (anti-aliasing): a row at most per edge.
		for hex, n := range counts {
			if hex != names["red"] && hex != names["white"] {
				require.LessOrEqual(t, n/512, changes/2, "only an edge row is a blend: %v", counts)
				c, r, w := tasks.ParseColour(hex), tasks.ParseColour(names["red"]), tasks.ParseColour(names["white"])
				require.True(t, between(c.G, r.G, w.G) && between(c.B, r.B, w.B), "%s is red and white mixed", hex)
			}
		}
		require.Greater(t, counts[names["red"]], 512*512/10, "red shows")
		require.Greater(t, counts[names["white"]], 512*512/10, "white shows")
		require.GreaterOrEqual(t, changes, 4, "the colours alternate in bands")
		reading := data[i]["reading"].(map[string]any)
		require.Equal(t, "stripes", reading["kind"])
		require.Equal(t, true, reading["kind_read"])
		require.Empty(t, reading["words_not_read"])
	}
}

func between(v, a, b uint8) bool { return v >= min(a, b) && v <= max(a, b) }

// TestBriefsAreRead reads briefs for their colours (ground first), kind,
// scale and mood, and says which words were not read.
func TestBriefsAreRead(t *testing.T) {
	for _, tc := range []struct {
		prompt       string
		colours      []string
		kind, scale  string
		mood         string
		wordsNotRead []string
		refusedTerms []string
	}{
		{"navy and mustard houndstooth, small scale, with a cream ground", []string{"cream", "navy", "mustard"},
			"houndstooth", "small", "", nil, nil},
		{"Calm sage and forest green gingham, LARGE", []string{"sage", "forest"}, "gingham", "large", "calm", nil, nil},
		{"bold zig-zag in sky blue on a white background, retro", []string{"white", "sky_blue"}, "chevron", "", "bold",
			[]string{"retro"}, nil},
		{"Gucci-style red stripes", []string{"red"}, "stripes", "", "", []string{"gucci", "style"}, []string{"gucci"}},
		{"louis   vuitton monogram", nil, "", "", "", []string{"louis", "vuitton", "monogram"}, []string{"louis vuitton"}},
		// Multi-word colour names are one colour: a specific name and its
		// family's word, or an everyday name the vocabulary lists as an alias.
		{"sage green and dusty rose gingham", []string{"sage", "blush"}, "gingham", "", "", nil, nil},
		{"Navy blue and white polka dots", []string{"navy", "white"}, "dots", "", "", nil, nil},
		{"charcoal grey windowpane on an off-white ground", []string{"ivory", "charcoal"}, "windowpane", "", "", nil,
			nil},
		{"red and black buffalo check, big", []string{"red", "black"}, "buffalo_check", "large", "", nil, nil},
		{"mustard yellow and teal blue vichy", []string{"mustard", "teal"}, "gingham", "", "", nil, nil},
		{"green blue stripes", []string{"green", "blue"}, "stripes", "", "", nil, nil},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			r := read(tc.prompt)
			var names []string
			for _, c := range r.colours {
				names = append(names, c.name)
			}
			require.Equal(t, tc.colours, names)
			require.Equal(t, tc.kind, r.kind)
			require.Equal(t, tc.scale, r.scale)
			require.Equal(t, tc.mood, r.mood)
			require.Equal(t, tc.wordsNotRead, r.wordsNotRead)
			require.Equal(t, tc.refusedTerms, r.refused)
		})
	}
}

// TestTheHoundstoothBriefIsDrawnAsRead: cream is the ground (the most
// common colour of a houndstooth), and small scale draws more, smaller
// motifs than large.
func TestTheHoundstoothBriefIsDrawnAsRead(t *testing.T) {
	_, small, err := run(
		t,
		`{"prompt":"navy and mustard houndstooth, small scale, with a cream ground","resolution":"512"}`,
		nil,
	)
	require.NoError(t, err)
	_, large, err := run(
		t,
		`{"prompt":"navy and mustard houndstooth, large, with a cream ground","resolution":"512"}`,
		nil,
	)
	require.NoError(t, err)
	require.Greater(t, small[0]["repeats"].(float64), large[0]["repeats"].(float64))
	require.Equal(t, "houndstooth", small[0]["kind"])
	require.Equal(t, []any{"#EDE0C2", "#1B2A4A", "#D3A12A"}, small[0]["colors"], "cream ground, then navy and mustard")
}

// pngWithText is a small PNG carrying a tEXt chunk, as photo tools write
// titles and descriptions.
func pngWithText(t *testing.T, keyword, text string) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := range img.Pix {
		img.Pix[i] = 0xC0
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	b := buf.Bytes()
	body := append([]byte(keyword+"\x00"), text...)
	chunk := make([]byte, 0, len(body)+12)
	chunk = append(chunk, byte(len(body)>>24), byte(len(body)>>16), byte(len(body)>>8), byte(len(body)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return append(append(append([]byte{}, b[:33]...), chunk...), b[33:]...)
}

// TestTheContentPolicy refuses a prompt naming a refused term at submit
// (Admit) and in the step, and a reference whose embedded text names one
// in the step.
func TestTheContentPolicy(t *testing.T) {
	d := task(t)
	admitter := d.Runner.(tasks.Admitter)
	for _, prompt := range []string{"Gucci stripes in red", "red L.O.U.I.S vuitton? no: louis vuitton checks",
		"NIKE red dots"} {
		err := admitter.Admit(context.Background(), tasks.Env{}, taskstest.Input(t, d, map[string]any{"prompt": prompt}))
		require.Equal(t, apierr.ContentRefused, apierr.As(err).Code, prompt)
		_, _, err = run(t, `{"prompt":`+mustJSON(prompt)+`,"resolution":"512"}`, nil)
		var se *tasks.StepError
		require.ErrorAs(t, err, &se)
		require.Equal(t, contract.ErrTypeContentRefused, se.Code)
	}
	require.NoError(
		t,
		admitter.Admit(context.Background(), tasks.Env{},
			taskstest.Input(t, d, map[string]any{"prompt": "navy channel stripes"})),
		"whole words only",
	)

	ref := pngWithText(t, "Description", "Burberry check, autumn")
	_, _, err := run(t, `{"prompt":"checks","references":["file:ref"],"resolution":"512"}`, files{"file:ref": ref})
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, contract.ErrTypeContentRefused, se.Code)
	require.Contains(t, se.Message, "references[0]")

	clean := pngWithText(t, "Description", "autumn swatch")
	_, data, err := run(t, `{"prompt":"checks","references":["file:ref"],"resolution":"512"}`, files{"file:ref": clean})
	require.NoError(t, err)
	cs := data[0]["reading"].(map[string]any)["colours"].([]any)
	require.Len(t, cs, 2, "a one-colour reference is drawn on a white ground")
	require.Equal(t, "default", cs[0].(map[string]any)["source"])
	require.Equal(t, "reference", cs[1].(map[string]any)["source"])
	require.Equal(t, "#C0C0C0", cs[1].(map[string]any)["hex"], "the reference's colour is read")
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPromptAndReferenceRules: blank or missing prompts answer
// prompt_required, too many references too_many_references, a brief with
// no colour and no reference request_refused.
func TestPromptAndReferenceRules(t *testing.T) {
	five := []string{"file:a", "file:b", "file:c", "file:d", "file:e"}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		code  apierr.Code
		field string
	}{
		{"missing", map[string]any{}, apierr.PromptRequired, "prompt"},
		{"empty", map[string]any{"prompt": ""}, apierr.PromptRequired, "prompt"},
		{"blank", map[string]any{"prompt": "  \t\n "}, apierr.PromptRequired, "prompt"},
		{"too many references", map[string]any{"prompt": "red stripes", "references": five}, apierr.TooManyReferences,
			"references"},
		{"no colour, no reference", map[string]any{"prompt": "stripes please"}, apierr.RequestRefused, "prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.body)
			_, err := task(t).Validate(b)
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

// TestMoodsChangeTheColours: pastel lightens, dark darkens, calm moves
// toward grey and bold away from it.
func TestMoodsChangeTheColours(t *testing.T) {
	red := "#E0261B"
	luma := func(h string) float64 {
		c := tasks.ParseColour(h)
		return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	}
	spread := func(h string) int {
		c := tasks.ParseColour(h)
		return int(max(c.R, c.G, c.B)) - int(min(c.R, c.G, c.B))
	}
	require.Greater(t, luma(withMood("pastel", red)), luma(red))
	require.Less(t, luma(withMood("dark", red)), luma(red))
	require.Less(t, spread(withMood("calm", red)), spread(red))
	require.Greater(t, spread(withMood("bold", "#B04A40")), spread("#B04A40"))
	require.Equal(t, red, withMood("", red))
}

// TestBriefsItCannotReadAreRefused: a brief naming a motif no kind draws,
// or naming no kind in words it cannot read, answers request_refused at
// validation — before a job exists or anything is held or charged — with
// the words that were not drawable; briefs it can read are admitted.
func TestBriefsItCannotReadAreRefused(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		words  []string // quoted in the message; nil when admitted
	}{
		{"ditsy floral in sage green and cream", []string{`"floral"`}},
		{"navy paisley", []string{`"paisley"`}},
		{"leopard print in camel and black", []string{`"leopard"`}},
		{"tropical palm leaves on a mint ground", []string{`"tropical"`, `"palm"`, `"leaves"`}},
		{"red gingham with little cherries", []string{`"cherries"`}},
		{"something summery for a beach towel, sage green", []string{`"something"`, `"summery"`, `"beach"`}},
		{"red, white, navy and mustard gingham", []string{"4 colours", "at most 3"}},
		{"dusty rose and sage green", nil},
		{"sage green gingham", nil},
		{"navy blue polka dots on white", nil},
		{"ditsy navy blue dots", nil},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			_, err := task(t).Validate([]byte(`{"prompt":` + mustJSON(tc.prompt) + `}`))
			if tc.words == nil {
				require.NoError(t, err)
				return
			}
			e := apierr.As(err)
			require.Equal(t, apierr.RequestRefused, e.Code, e.Message)
			require.Equal(t, "prompt", *e.Field)
			for _, w := range tc.words {
				require.Contains(t, e.Message, w)
			}
		})
	}
}

// TestGinghamBriefIsDrawnAsGingham: "gingham" draws the woven check with
// its mixed tone (three tones), sage green read as one colour.
func TestGinghamBriefIsDrawnAsGingham(t *testing.T) {
	imgs, data, err := run(t, `{"prompt":"sage green gingham on a white ground","resolution":"512"}`, nil)
	require.NoError(t, err)
	require.Equal(t, "gingham", data[0]["kind"])
	names := map[string]string{}
	for _, c := range colour.Names() {
		names[c.Value] = c.Hex
	}
	require.Equal(t, []any{names["white"], names["sage"]}, data[0]["colors"])
	counts := map[string]int{}
	for y := 0; y < 512; y += 3 {
		for x := 0; x < 512; x += 3 {
			counts[hexOf(rgb(imgs[0], x, y))]++
		}
	}
	var big []string
	for hex, n := range counts {
		if n > 171*171/10 {
			big = append(big, hex)
		}
	}
	require.Len(t, big, 3, "white, sage and their mix: %v", counts)
}
