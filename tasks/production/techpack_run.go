package production

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/disintegration/imaging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// techpackRunner plans one PDF and reads the records at submit.
type techpackRunner struct{}

// Plan asks for the PDF.
func (techpackRunner) Plan(*techpackInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "laying out the techpack"}
}

// AdmitErrors is what Admit answers beyond the codes of every call.
func (techpackRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.BrandKitLookNotReady}
}

// Admit reads the fabric, brand kit and range plan the input names, so a
// record the account cannot read, or a kit whose looks are not analysed,
// is refused before any credit is held.
func (techpackRunner) Admit(ctx context.Context, env tasks.Env, in *techpackInput) error {
	_, err := resolve(ctx, env, packOf(in))
	return err
}

// resolved are the records a techpack draws from.
type resolved struct {
	fabric    *recordread.Fabric
	kit       *recordread.BrandKit
	rangePlan *recordread.RangePlan
}

// resolve reads the records of p; without an env (a catalogue example)
// only curated fabrics are read.
func resolve(ctx context.Context, env tasks.Env, p pack) (resolved, error) {
	var r resolved
	var err error
	if r.fabric, err = recordread.ReadFabric(ctx, env, "fabric", p.fabric); err != nil {
		return r, err
	}
	if p.brandKit != "" {
		if r.kit, err = recordread.ReadBrandKit(ctx, env, "colourways", p.brandKit); err != nil {
			return r, err
		}
		if err := r.kit.LooksReady("colourways"); err != nil {
			return r, err
		}
	}
	if p.rangePlan != "" {
		if r.rangePlan, err = recordread.ReadRangePlan(ctx, env, "range_plan", p.rangePlan); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Step draws the techpack PDF.
func (techpackRunner) Step(ctx context.Context, in *techpackInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("techpack.create: no output %d", i)
	}
	env, _ := tasks.EnvOf(ctx)
	p := packOf(in)
	r, err := resolve(ctx, env, p)
	if err != nil {
		return tasks.Output{}, tasks.InStep(err)
	}
	if r.kit != nil {
		for _, c := range r.kit.Colours {
			p.colourways = append(
				p.colourways,
				Colourway{Name: cmpOr(c.Name, c.Hex), Colours: []string{strings.ToUpper(c.Hex)}},
			)
		}
	}
	if p.date == "" {
		p.date = env.Time().Format("2006-01-02")
	}
	doc := &layout{p: p, r: r, ctx: ctx}
	for _, ref := range p.images {
		// One image at full size at a time, kept at the most the sheet
		// rasters it at.
		img, err := tasks.ReduceImage(ctx, ref, inputSides, func(full image.Image) image.Image {
			return imaging.Fit(full, pdfsheet.MaxRaster, pdfsheet.MaxRaster, imaging.Linear)
		})
		if err != nil {
			return tasks.Output{}, err
		}
		doc.images = append(doc.images, img)
	}
	data, pages, err := doc.pdf()
	if err != nil {
		return tasks.Output{}, err
	}
	return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: summary(p, r, pages)}, nil
}

// nonEmpty is s, or nil when it is empty.
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// summary is the data of the techpack PDF: its figures as JSON.
func summary(p pack, r resolved, pages int) map[string]any {
	f := r.fabric
	comp := []any{}
	for _, c := range f.Facts.Composition {
		comp = append(comp, obj{"fibre": c.Fibre, "percent": c.Percent})
	}
	ways := []any{}
	for _, w := range p.colourways {
		cs := []any{}
		for _, hex := range w.Colours {
			rgb := tasks.ParseColour(hex)
			k := colour.CurrentPress().CMYK(tasks.ParseColour(hex))
			cs = append(
				cs,
				obj{
					"hex":  hex,
					"srgb": []any{int(rgb.R), int(rgb.G), int(rgb.B)},
					"cmyk": []any{k[0], k[1], k[2], k[3]},
				},
			)
		}
		ways = append(ways, obj{"name": w.Name, "colours": cs, "cmyk_conversion": colour.CurrentPress().Method()})
	}
	var meas []any
	for _, m := range p.measurements {
		meas = append(meas, obj{"point": m.Point, "tolerance_mm": m.ToleranceMM, "sizes": toAny(m.Sizes)})
	}
	var bom []any
	for _, b := range p.bom {
		bom = append(bom, toAny(b))
	}
	out := obj{
		"index": 0, "format": "pdf", "name": p.name, "pages": pages, "style_images": len(p.images),
		"style_code": nonEmpty(p.styleCode), "version": p.version, "date": p.date,
		"fabric": obj{"handle": f.Handle, "name": f.Name, "code": f.Code, "weight_gsm": f.Facts.WeightGSM,
			"weight_oz_yd2": f.WeightOz, "weight_class": f.WeightClass, "composition": comp,
			"construction": f.Facts.Construction},
		"colourways": ways, "sizes": toAny(p.sizes), "measurements": meas, "bom": bom,
		"brand_kit": nil, "range_plan": nil,
	}
	if r.kit != nil {
		out["brand_kit"] = r.kit.Handle
	}
	if r.rangePlan != nil {
		out["range_plan"] = obj{"handle": r.rangePlan.Handle, "name": r.rangePlan.Name, "season": r.rangePlan.Season}
	}
	return out
}

// toAny is v as encoding/json would decode it: plain maps, slices and
// float64, as output data is validated and stored.
func toAny(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// mm writes a length in millimetres without trailing zeros.
func mm(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}
