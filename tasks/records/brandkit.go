package records

import (
	"context"
	"fmt"
	"image"
	"math"
	"path"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// onBrandDE is the CIEDE2000 difference under which a look's colour counts
// as one of the kit's.
const onBrandDE = 10

// brandKit makes a brand kit record: a brand sheet as PNG and PDF.
func brandKit() *tasks.Definition {
	return &tasks.Definition{
		Name: "brand_kit.create", Title: "Create a brand kit",
		Description: "Keeps a brand's colours, moodboards and chosen looks as a brand kit record, delivered as a brand " +
			"sheet (PNG and a one-page PDF).",
		Category: tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.InputSchema[brandKitInput](
			"brand_kit.create input",
			"A brand kit: colours, moodboards and looks.",
			nil,
		)),
		OutputSchema: brandKitOutput(),
		Runner:       tasks.Typed[brandKitInput](brandKitRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 2},
		ErrorRules: append([]tasks.ErrorRule{
			{Field: "colours[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "colours[]", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "colours", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "moodboards", Keyword: "required", Code: apierr.MoodboardRequired},
			{Field: "moodboards", Keyword: "minItems", Code: apierr.MoodboardRequired},
			{Field: "moodboards[]", Keyword: "pattern", Code: apierr.MoodboardRequired},
			{Field: "moodboards[]", Keyword: "type", Code: apierr.MoodboardRequired},
		}, nameRules...),
		Docs:     brandKitDocs(),
		Examples: brandKitExamples(),
		Produces: []string{"brand_kit", "job"},
		Uses:     []string{"moodboard", "look", "credit_hold"},
	}
}

func brandKitOutput() []byte {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Brand sheet data", "type": "object",
		"description": "The data of a brand sheet, PNG (index 0) or PDF (index 1).",
		"properties": obj{
			"brand_kit": obj{
				"type":        []any{"string", "null"},
				"description": "The record, brand_kit:<id>; null in a catalogue example.",
			},
			"index":  obj{"type": "integer", "minimum": 0, "maximum": 1},
			"format": obj{"type": "string", "enum": []any{"png", "pdf"}},
			"name":   obj{"type": "string"},
			"colours": obj{
				"type": "array",
				"items": obj{"type": "object", "required": []string{"hex", "name"}, "properties": obj{
					"hex": tasks.ColourSchema(
						"A brand colour.",
					), "name": obj{"type": "string", tasks.VocabKeyword: "colour_name"}}},
			},
			"moodboards": obj{"type": "array", "items": obj{"type": "string"}},
			"looks":      obj{"type": "integer", "minimum": 0, "description": "The number of looks the kit keeps."},
		},
		"required": []string{"brand_kit", "index", "format", "name", "colours", "moodboards", "looks"},
	})
}

type brandKitRunner struct{}

// Plan asks for the sheet as PNG, then as PDF.
func (brandKitRunner) Plan(*brandKitInput) tasks.Plan {
	return tasks.Plan{Steps: 2, Phase: "drawing the brand sheet"}
}

// AdmitErrors is what Admit answers.
func (brandKitRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{
		apierr.NameRequired,
		apierr.MoodboardRequired,
		apierr.MoodboardNotReady,
		apierr.LookNotInMoodboard,
	}
}

// Admit checks the moodboards (the account's or curated, analysed) and
// that every look comes from one of them, then opens the record.
func (brandKitRunner) Admit(ctx context.Context, env tasks.Env, in *brandKitInput) error {
	if err := checkName(in.Name); err != nil {
		return err
	}
	kit, err := resolveKit(ctx, env, in)
	if err != nil {
		return err
	}
	looks := make([]KitLook, len(kit.looks))
	for i, l := range kit.looks {
		looks[i] = KitLook{URL: l.rel, Moodboard: l.board, Index: l.look.Index}
	}
	return openRecord(
		ctx,
		env,
		KindBrandKit,
		kit.name,
		brandKitFields{Colours: kit.colours, Moodboards: kit.boardRefs, Looks: looks, Notes: notesOf(in)},
	)
}

// notes are the kit's notes, "" when none were sent.
func (in *brandKitInput) notes() string {
	if in.Notes == nil {
		return ""
	}
	return *in.Notes
}

// notesOf is the kit's notes as its record keeps them: nil when none or
// empty.
func notesOf(in *brandKitInput) *string {
	if n := in.notes(); n != "" {
		return &n
	}
	return nil
}

// kitLook is a look a kit keeps, found in its moodboard.
type kitLook struct {
	board string
	look  Look
	rel   string // the stored copy's relative address
}

// kit is a brand kit's input resolved against its moodboards.
type kit struct {
	name      string
	colours   []KitColour
	boardRefs []string
	boards    []*Moodboard
	looks     []kitLook
}

// resolveKit reads the moodboards and finds the looks of a brand kit input:
// moodboard_required, moodboard_not_ready and look_not_in_moodboard name
// the field at fault.
func resolveKit(ctx context.Context, env tasks.Env, in *brandKitInput) (*kit, error) {
	k := &kit{name: strings.TrimSpace(in.Name), boardRefs: in.Moodboards}
	for _, hex := range in.Colours {
		hex = strings.ToUpper(hex)
		k.colours = append(k.colours, KitColour{Hex: hex, Name: nearestName(labOfHex(hex))})
	}
	for i, ref := range k.boardRefs {
		field := fmt.Sprintf("moodboards[%d]", i)
		mb, err := ReadMoodboard(ctx, env, field, ref)
		if ae := apierr.As(err); err != nil && ae != nil && ae.Code == apierr.InvalidRequest {
			return nil, apierr.Newf(apierr.MoodboardRequired, "%s names no moodboard of the account's or the curated "+
				"library's; list them at GET /v1/refs/moodboard.", field).
				WithField(field)
		}
		if err != nil {
			return nil, err
		}
		if err := mb.Ready(field); err != nil {
			return nil, err
		}
		k.boards = append(k.boards, mb)
	}
	for i, url := range in.Looks {
		l, ok := findLook(k.boards, url)
		if !ok {
			return nil, apierr.Newf(apierr.LookNotInMoodboard, "looks[%d] is not a look of the named moodboards; send "+
				"looks[].url of their analysis (GET /v1/files/{moodboard}).", i).
				WithField(fmt.Sprintf("looks[%d]", i))
		}
		k.looks = append(k.looks, l)
	}
	return k, nil
}

// findLook finds the look of boards whose stored copy url names (by its
// /files/{id}.{ext} path, whatever the host).
func findLook(boards []*Moodboard, url string) (kitLook, bool) {
	i := strings.LastIndex(url, "/files/")
	if i < 0 {
		return kitLook{}, false
	}
	want := url[i:]
	for _, mb := range boards {
		if mb.Analysis == nil {
			continue
		}
		for _, l := range mb.Analysis.Looks {
			if j := strings.LastIndex(l.URL, "/files/"); j >= 0 && l.URL[j:] == want {
				return kitLook{board: mb.Handle, look: l, rel: want}, true
			}
		}
	}
	return kitLook{}, false
}

// matchKit pairs each dominant colour of a look with the nearest kit colour.
func matchKit(l Look, colours []KitColour) []KitMatch {
	var out []KitMatch
	for _, d := range l.Dominant {
		best, bd := "", math.Inf(1)
		for _, c := range colours {
			if de := colour.DeltaE(labOfHex(d.Hex), labOfHex(c.Hex)); de < bd {
				best, bd = c.Hex, de
			}
		}
		out = append(out, KitMatch{Hex: d.Hex, KitHex: best, DeltaE: round(bd, 1), OnBrand: bd < onBrandDE})
	}
	return out
}

// Step draws the sheet (0: PNG, 1: PDF); the first also analyses the kit's
// looks against its colours and completes the record.
func (brandKitRunner) Step(ctx context.Context, in *brandKitInput, i int) (tasks.Output, error) {
	env, _ := tasks.EnvOf(ctx)
	k, err := resolveKit(ctx, env, in)
	if err != nil {
		return tasks.Output{}, tasks.InStep(err)
	}
	looks := make([]KitLook, len(k.looks))
	imgs := make([]image.Image, len(k.looks))
	for j, l := range k.looks {
		a := l.look
		a.URL = l.rel
		looks[j] = KitLook{
			URL:       l.rel,
			Moodboard: l.board,
			Index:     l.look.Index,
			Look:      &a,
			Match:     matchKit(l.look, k.colours),
		}
		if imgs[j], err = recordImage(ctx, env, l.rel); err != nil {
			return tasks.Output{}, err
		}
	}
	meta := obj{
		"brand_kit":  handleOf(ctx, KindBrandKit),
		"index":      i,
		"name":       k.name,
		"colours":    toJSON(k.colours),
		"moodboards": k.boardRefs,
		"looks":      len(looks),
	}
	notes := in.notes()
	switch i {
	case 0:
		fields := brandKitFields{Colours: k.colours, Moodboards: k.boardRefs, Looks: looks, Notes: notesOf(in)}
		if err := completeRecord(ctx, KindBrandKit, fields, nil); err != nil {
			return tasks.Output{}, err
		}
		data, err := encodePNG(brandSheet(k, looks, imgs, notes))
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "png"
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
	case 1:
		data, err := brandPDF(k, looks, imgs, notes)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "pdf"
		return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("brand_kit.create: no output %d", i)
}

// recordImage reads the stored image a record keeps at a relative address
// (/files/{id}.{ext}).
func recordImage(ctx context.Context, env tasks.Env, rel string) (image.Image, error) {
	if env.DB == nil {
		return nil, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: "no stored image outside a job"}
	}
	id := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	f, err := models.FileByID(ctx, env.DB, id)
	if err != nil {
		return nil, fmt.Errorf("read stored image %s: %w", id, err)
	}
	data, err := env.Blob.ReadAll(ctx, f.BlobKey)
	if err != nil {
		return nil, fmt.Errorf("read stored image %s: %w", id, err)
	}
	img, err := imagefile.Decode(data)
	if err != nil {
		return nil, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: "a stored look cannot be decoded"}
	}
	return img, nil
}

// brandSheet draws the kit as a PNG sheet.
func brandSheet(k *kit, looks []KitLook, imgs []image.Image, notes string) image.Image {
	const width, pad = 1800, 48
	noteLines := wrap(notes, 24, width-2*pad)
	h := 166 + 420 + len(k.boards)*110 + 60
	if len(looks) > 0 {
		h += ((len(looks)+5)/6)*360 + 60
	}
	h += len(noteLines)*34 + 80
	out := canvas(width, h, paper)
	text(out, pad, 96, k.name, 56, true, ink, width-2*pad)
	text(
		out,
		pad,
		138,
		"Brand kit · "+plural(
			len(k.colours),
			"colour",
		)+" · "+plural(
			len(k.boards),
			"moodboard",
		)+" · "+plural(
			len(looks),
			"look",
		),
		24,
		false,
		muted,
		0,
	)
	y := 176
	cw := (width - 2*pad - (len(k.colours)-1)*16) / len(k.colours)
	for i, c := range k.colours {
		x := pad + i*(cw+16)
		swatchRect(out, image.Rect(x, y, x+cw, y+280), c.Hex)
		text(out, x, y+316, c.Hex, 22, true, ink, cw)
		text(out, x, y+344, colour.Label(c.Name), 20, false, muted, cw)
		rgb := tasks.ParseColour(c.Hex)
		text(out, x, y+370, fmt.Sprintf("RGB %d %d %d", rgb.R, rgb.G, rgb.B), 16, false, muted, cw)
		text(out, x, y+392, colour.CMYKLabel(tasks.ParseColour(c.Hex)), 16, false, muted, cw)
	}
	y += 440
	for _, mb := range k.boards {
		text(out, pad, y+24, mb.Name, 22, true, ink, width-2*pad)
		x := pad
		if mb.Analysis != nil {
			for j, c := range mb.Analysis.Palette {
				w := int(math.Round(c.Weight * float64(width-2*pad)))
				if j == len(mb.Analysis.Palette)-1 {
					w = width - pad - x
				}
				fill(out, image.Rect(x, y+40, x+w, y+90), tasks.ParseColour(c.Hex))
				x += w
			}
			outline(out, image.Rect(pad, y+40, width-pad, y+90), rule)
		}
		y += 110
	}
	if len(looks) > 0 {
		y += 20
		text(out, pad, y+24, "Looks", 28, true, ink, 0)
		y += 40
		lw := (width - 2*pad - 5*24) / 6
		for i, l := range looks {
			x := pad + (i%6)*(lw+24)
			ly := y + (i/6)*360
			cover(out, image.Rect(x, ly, x+lw, ly+lw), imgs[i])
			for j, m := range l.Match {
				mx := x + j*(lw/3)
				swatchRect(out, image.Rect(mx, ly+lw+8, mx+lw/3-4, ly+lw+44), m.Hex)
				mark := "≈ " + m.KitHex
				if !m.OnBrand {
					mark = "off " + m.KitHex
				}
				text(out, mx, ly+lw+66, mark, 14, false, muted, lw/3-4)
			}
		}
		y += ((len(looks)+5)/6)*360 + 20
	}
	if len(noteLines) > 0 {
		text(out, pad, y+30, "Notes", 28, true, ink, 0)
		for i, line := range noteLines {
			text(out, pad, y+72+i*34, line, 24, false, ink, 0)
		}
	}
	return out
}

// brandPDF lays the kit out on one A4 page.
func brandPDF(k *kit, looks []KitLook, imgs []image.Image, notes string) ([]byte, error) {
	s := pdfsheet.A4(k.name+" brand kit", false)
	const m = 40.0
	inner := s.W - 2*m
	s.Text(m, m, k.name, 26, true, ink, inner)
	s.Text(
		m,
		m+34,
		"Brand kit · "+plural(
			len(k.colours),
			"colour",
		)+" · "+plural(
			len(k.boards),
			"moodboard",
		)+" · "+plural(
			len(looks),
			"look",
		),
		11,
		false,
		muted,
		inner,
	)
	y := m + 64
	per := min(len(k.colours), 6)
	rows := (len(k.colours) + per - 1) / per
	// The colours fill the page's top (tall swatches for one row) when the
	// page has room; a kit with looks or many boards keeps them short.
	roomy := len(looks) == 0 && len(k.boards) <= 2
	swH := 80.0
	if roomy {
		swH = 170
		if rows > 1 {
			swH = 110
		}
	}
	pitch := swH + 62
	stripH, boardH := 18.0, 44.0
	if roomy {
		stripH, boardH = 30, 80
	}
	cw := (inner - float64(per-1)*8) / float64(per)
	for i, c := range k.colours {
		x := m + float64(i%per)*(cw+8)
		cy := y + float64(i/per)*pitch
		s.Swatch(x, cy, cw, swH, tasks.ParseColour(c.Hex))
		s.Text(x, cy+swH+6, c.Hex, 10, true, ink, cw)
		s.Text(x, cy+swH+20, colour.Label(c.Name), 9, false, muted, cw)
		rgb := tasks.ParseColour(c.Hex)
		s.Text(x, cy+swH+33, fmt.Sprintf("RGB %d %d %d", rgb.R, rgb.G, rgb.B), 8, false, muted, cw)
		s.Text(x, cy+swH+45, colour.CMYKLabel(tasks.ParseColour(c.Hex)), 8, false, muted, cw)
	}
	y += float64(rows)*pitch + 8
	for _, mb := range k.boards {
		s.Text(m, y, mb.Name, 11, true, ink, inner)
		x := m
		if mb.Analysis != nil {
			pal := mb.Analysis.Palette
			for j, c := range pal {
				w := c.Weight * inner
				if j == len(pal)-1 {
					w = m + inner - x
				}
				s.Rect(x, y+18, w, stripH, tasks.ParseColour(c.Hex))
				x += w
			}
			s.Outline(m, y+18, inner, stripH, pdfsheet.SwatchRule)
			// Each colour of the board named with its share.
			chipW := inner / float64(max(len(pal), 1))
			for j, c := range pal {
				if !roomy {
					break
				}
				cx := m + float64(j)*chipW
				s.Swatch(cx, y+56, 10, 10, tasks.ParseColour(c.Hex))
				s.Text(cx+14, y+57, fmt.Sprintf("%s %.0f%%", colour.Label(c.Name), c.Weight*100), 7.5, false, ink,
					chipW-16)
			}
		}
		y += boardH
	}
	if len(looks) > 0 {
		s.Text(m, y, "Looks", 13, true, ink, 0)
		y += 20
		// The looks take the room left above the notes: smaller tiles
		// for a fuller kit, so the sheet stays one page.
		lw := (inner - 5*8) / 6
		reserve := 0.0
		if notes != "" {
			reserve = 80
		}
		lookRows := float64((len(looks) + 5) / 6)
		lw = max(24, min(lw, (s.H-m-y-reserve)/lookRows-30))
		for i, l := range looks {
			x := m + float64(i%6)*(lw+8)
			ly := y + float64(i/6)*(lw+30)
			s.Image(imgs[i], x, ly, lw, lw)
			on := 0
			for _, mt := range l.Match {
				if mt.OnBrand {
					on++
				}
			}
			label := fmt.Sprintf("%d of %d colours on brand", on, len(l.Match))
			if lw < 80 {
				label = fmt.Sprintf("%d/%d on brand", on, len(l.Match))
			}
			s.Text(x, ly+lw+4, label, 5.5, false, muted, lw+7)
		}
		y += float64((len(looks)+5)/6) * (lw + 30)
	}
	if notes != "" {
		s.Text(m, y+6, "Notes", 13, true, ink, 0)
		for i, line := range s.Wrap(notes, 10, false, inner) {
			if y+28+float64(i)*14 > s.H-m {
				break
			}
			s.Text(m, y+28+float64(i)*14, line, 10, false, ink, inner)
		}
	}
	return s.Bytes()
}
