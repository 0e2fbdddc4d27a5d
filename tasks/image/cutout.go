package image

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// minBorderShare is the cut-out's confidence threshold: how much of the
// image's border must be within the tolerance of the fitted backdrop for
// the background to count as plain. Below it the cut-out is refused (not
// charged): a product in a scene, or on a cluttered table, is cut out
// badly more often than not.
const minBorderShare = 0.8

// minObjectShare is the smallest object a cut-out keeps: below, the image
// is all background.
const minObjectShare = 0.002

func removeBackground() *tasks.Definition {
	return &tasks.Definition{
		Name: "image.remove_background", Title: "Remove a plain background",
		Description: "Makes the plain or graded backdrop of product shots transparent, shadows (or keeps them as a soft " +
			"neutral layer) and enclosed gaps included, with soft decontaminated edges; transparent PNG cut-outs.",
		Category: tasks.CategoryImageEditing, Unit: "image", Produces: []string{"cut_out"},
		InputSchema: tasks.MustJSON(tasks.InputSchema[cutoutInput](
			"image.remove_background input",
			"Product shots on a plain background: one cut-out per image.",
			nil,
		)),
		OutputSchema: outputSchema("Cut-out data", "The data of one cut-out.", obj{
			"background": obj{
				"type":    "string",
				"pattern": tasks.ColourPattern,
				"description": "The backdrop colour found, at the image's centre: the backdrop is a smooth surface fitted to " +
					"the image's border, so sweeps, gradients and vignettes are removed too.",
			},
			"confidence": obj{
				"type":    "number",
				"minimum": 0,
				"maximum": 1,
				"description": "How plain the backdrop was: the share of the image's border within tolerance of the fitted " +
					"backdrop. Below 0.8 no cut-out is made (the image gives no file and is not charged); between 0.8 and 0.9 look " +
					"at the result (part of the border is busy or cluttered).",
			},
			"cut_quality": cutQualitySchema(),
			"object_share": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     1,
				"description": "The share of the image kept as the object (alpha above 0).",
			},
		}),
		Runner:     tasks.Typed[cutoutInput](cutoutRunner{}),
		Pricing:    perOutput(2),
		RefSides:   map[string]tasks.ImageSides{"images": inputSides},
		ErrorRules: imagesRules,
		Warns:      []apierr.Code{apierr.CutoutUncertain},
		Docs:       cutoutDocs(),
		Examples: []tasks.Example{{
			Name: "bottle_on_grey", Title: "A bottle shot on a pale grey backdrop",
			Description: "The backdrop becomes transparent; the bottle keeps its pixels with a 2 px soft edge.",
			Input:       json.RawMessage(`{"images":["file:example_product"],"feather":2}`),
			Files:       []tasks.ExampleFile{productFile},
		}},
	}
}

// cutoutRunner makes one cut-out per input image.
type cutoutRunner struct{}

// Plan asks for one output per image.
func (cutoutRunner) Plan(in *cutoutInput) tasks.Plan {
	return perImage(in.Images, "removing backgrounds")
}

// Step cuts out images[i].
func (cutoutRunner) Step(ctx context.Context, in *cutoutInput, i int) (tasks.Output, error) {
	r, err := imageRef(in.Images, i)
	if err != nil {
		return tasks.Output{}, err
	}
	src, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	res, err := cutOutGlass(ctx, src.img, in.Tolerance, in.Feather, in.KeepShadow)
	if err != nil {
		se := failf(r.Field, r.Ref, "%v", err).(*tasks.StepError)
		se.Err = err // a route with a fallback reads the confidence of a refusal (tasks.LowConfidence)
		return tasks.Output{}, se
	}
	q := readCutQuality(src.img, res.img)
	enc, err := encode(res.img, "png", 0, src.icc)
	if err != nil {
		return tasks.Output{}, err
	}
	releaseImage(res.img) // encoded: its pixels are read no more
	b := res.img.Bounds()
	out := enc.output(map[string]any{"index": i, "image": r.Ref, "width": b.Dx(), "height": b.Dy(), "format": "png",
		"source_width": b.Dx(), "source_height": b.Dy(), "background": res.background.Hex(),
		"object_share": math.Round(res.objectShare*1e4) / 1e4, "confidence": math.Round(res.confidence*1e3) / 1e3,
		"cut_quality": math.Round(q.score*1e3) / 1e3})
	q.judge(&out, r)
	if res.inferred && !out.Uncharged {
		warnInferred(&out, r)
	}
	return out, nil
}

// warnInferred marks out, a cut-out whose outline was in part drawn where
// the image shows no edge (lookAtShading), uncertain: warned, not charged.
func warnInferred(out *tasks.Output, r tasks.Ref) {
	field := r.Field
	out.Uncharged = true
	out.Warnings = append(out.Warnings, contract.Warning{Code: string(apierr.CutoutUncertain), Field: &field,
		Message: fmt.Sprintf("The cut-out of %s may be wrong: part of the product shows no edge against the "+
			"backdrop (its lit side is the backdrop's own tone), so its outline there was drawn from the rest of "+
			"the outline; a sliver of the backdrop may be kept or part of the product lost. It was delivered and "+
			"not charged; look at it before using it.", r.Ref)})
}

// cutout is a cut-out with what was found.
type cutout struct {
	img         *image.NRGBA
	background  colour.Lab
	objectShare float64
	confidence  float64 // the share of the border near the fitted backdrop
	seeThrough  float64 // the share of the object given a see-through alpha (cutglass.go)
	clearBody   []bool  // a body found by its outline whose inside is the backdrop (cutbare.go, cutoutline.go)
	inferred    bool    // part of the outline drawn where the image shows no edge (cutshading.go)
	unseen      float64 // the share of the white look's outline closed over a gap (cutwhite.go), else 0
}

// cutOut makes the background of img transparent; see cutmatte.go. A
// see-through body stays opaque, the backdrop seen through it baked in:
// the other families (packshots, knockouts) lay the product on opaque
// canvases as it was photographed.
func cutOut(ctx context.Context, img image.Image, tol float64, feather int) (cutout, error) {
	return cutOutMatte(ctx, img, tol, feather, false)
}

// cutOutGlass is the cut-out (cutmatte.go) with its see-through bodies
// given their alpha (cutglass.go).
func cutOutGlass(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (cutout, error) {
	res, err := cutOutMatte(ctx, img, tol, feather, keepShadow)
	if err != nil {
		return res, err
	}
	return withPaleParts(img, withTurnedBody(img, withGlass(img, res, tol), tol)), nil
}

// borderSeeds is every pixel of a W × H image's frame, each once: the
// seeds of a flood from the border.
func borderSeeds(W, H int) []int {
	seeds := make([]int, 0, 2*W+2*H)
	for x := range W {
		seeds = append(seeds, x, (H-1)*W+x)
	}
	for y := 1; y < H-1; y++ {
		seeds = append(seeds, y*W, y*W+W-1)
	}
	return seeds
}

// flood is every pixel connected to a seed (4-neighbours) through near
// pixels, seeds included when near. It fills a row's whole run of near
// pixels at once and seeds the runs it touches above and below. It uses
// near up: a pixel it fills is cleared there, so one read tells whether a
// pixel is still open.
func flood(near []bool, W, H int, seeds []int) []bool {
	isBg := boolPool.get(len(near))
	clear(isBg)
	stack := make([]int32, 0, len(seeds))
	for _, i := range seeds {
		stack = append(stack, int32(i))
	}
	open := func(j int) bool { return near[j] }
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if !open(i) {
			continue
		}
		y := i / W
		l, r := i, i
		for l > y*W && open(l-1) {
			l--
		}
		for r < y*W+W-1 && open(r+1) {
			r++
		}
		for k := l; k <= r; k++ {
			isBg[k], near[k] = true, false
		}
		for _, o := range [2]int{-W, W} {
			if (o < 0 && y == 0) || (o > 0 && y == H-1) {
				continue
			}
			run := false
			for k := l + o; k <= r+o; k++ {
				if open(k) {
					if !run {
						stack = append(stack, int32(k))
					}
					run = true
				} else {
					run = false
				}
			}
		}
	}
	return isBg
}

// featherAlpha is the alpha of each pixel: 0 on the background, rising
// over feather pixels from the object's outline (a 3-4 chamfer distance to
// the nearest background pixel) to 255.
func featherAlpha(isBg []bool, W, H, feather int) []uint8 {
	n := W * H
	alpha := bytePool.get(n)
	clear(alpha)
	if feather == 0 {
		for i := range n {
			if !isBg[i] {
				alpha[i] = 255
			}
		}
		return alpha
	}
	// Chamfer distances in thirds of a pixel, capped: only the ramp
	// matters, and a byte holds it (feather is at most 20: limit + 4 < 256).
	limit := uint8(3 * (feather + 1))
	ramp := make([]uint8, limit+1)
	for v := range ramp {
		ramp[v] = uint8(min(255, v*255/int(limit)))
	}
	// Two raster passes, each pixel taking the least of its distance (0 on
	// the background, limit elsewhere, set by the first) and its
	// already-passed neighbours' plus 3 (edge) or 4 (corner); a background
	// pixel cannot get lower and is skipped. The second pass writes the
	// alpha of each pixel it finishes.
	d := bytePool.get(n) // every pixel set by the first pass
	defer bytePool.put(d)
	for y := range H {
		row, bg := d[y*W:y*W+W], isBg[y*W:y*W+W]
		var up []uint8
		if y > 0 {
			up = d[(y-1)*W : y*W]
		}
		for x := range row {
			if bg[x] {
				row[x] = 0
				continue
			}
			v := limit
			if x > 0 {
				v = min(v, row[x-1]+3)
			}
			if up != nil {
				v = min(v, up[x]+3)
				if x > 0 {
					v = min(v, up[x-1]+4)
				}
				if x < W-1 {
					v = min(v, up[x+1]+4)
				}
			}
			row[x] = v
		}
	}
	for y := H - 1; y >= 0; y-- {
		row, out := d[y*W:y*W+W], alpha[y*W:y*W+W]
		var down []uint8
		if y < H-1 {
			down = d[(y+1)*W : (y+2)*W]
		}
		for x := W - 1; x >= 0; x-- {
			v := row[x]
			if v == 0 {
				continue
			}
			if x < W-1 {
				v = min(v, row[x+1]+3)
			}
			if down != nil {
				v = min(v, down[x]+3)
				if x < W-1 {
					v = min(v, down[x+1]+4)
				}
				if x > 0 {
					v = min(v, down[x-1]+4)
				}
			}
			row[x], out[x] = v, ramp[v]
		}
	}
	return alpha
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func cutoutDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "image.remove_background makes the backdrop of a product shot transparent. It fits a smooth surface to the " +
			"colours of the image's border (so sweeps, gradients and vignettes are backdrop everywhere), treats darker " +
			"pixels of the backdrop's own chromaticity as its shadows, floods from the border through backdrop and shadow " +
			"pixels but not across sharp edges (an outline, a seam), removes enclosed regions that are the backdrop itself " +
			"(a handle's hole), and unmixes the alpha and colour of the pixels along the outline (solving the product's " +
			"colour F from I = αF + (1 − α)B with the fitted backdrop B) so edges are soft without a fringe of the backdrop " +
			"colour. With keep_shadow the shadow is kept instead, as a soft neutral layer of its measured density. It is " +
			"image processing, not a model: it needs a plain or evenly graded backdrop, as on a product table or a paper " +
			"sweep. Faint lines darker than both their sides (a white mug's rim, a tee's hem) and sharp steps stop the " +
			"flood too, a gap of up to 8 px in such an outline closed (where a rim turns into a step onto its own " +
			"shadow), so a white product inside a visible outline is kept when its shading, texture or hue does not " +
			"continue the backdrop; white fills inside thin black outlines (a drawing) are kept. On our ground-truth set of " +
			"rendered packshots (go test -bench CutoutQuality ./tasks/image) it scores a " +
			"mean IoU of 0.994 (lowest 0.974), a mean alpha error under 1/255, shadows and enclosed gaps at alpha ≤ 0.01, " +
			"light parts at 0.99; on the light set (-bench CutoutLight: white on white, light on grey, drawings, glass, " +
			"JPEG at quality 70 to 90) a mean IoU of 0.986 (lowest 0.942), light parts kept at 0.995, enclosed gaps at " +
			"0.001; on the varied light set (-bench CutoutVaried: 18 shots tuned on, 7 held out after the first round, " +
			"9 drawn and held out for the second) a mean IoU of 0.977 tuned, 0.974 and 0.974 held out (lowest 0.937, " +
			"0.938 and 0.953), light parts kept at 0.993, 0.984 and 0.996, enclosed gaps at 0.002, 0.002 and 0.000; on " +
			"six shots drawn for the third round (-bench CutoutRibbon) 0.850, three of them under 0.93 (see the " +
			"limitations); and soft " +
			"edges that carry on average 0.03 of the backdrop's colour onto a new background " +
			"(under 0.01 on most shots; JPEG's halved colour resolution leaves the most).",
		BuiltFor: []string{
			"Cut-outs of packshots for marketplaces, catalogues and compositing.",
			"Batch-processing a shoot taken on one backdrop.",
		},
		WhatYouGet: []string{
			"One transparent PNG (RGBA) per input image, same size, in the order sent: background alpha 0, the object as it " +
				"was, a soft edge of feather pixels.",
			"With keep_shadow, the product's shadow as a soft layer of neutral black behind it, its opacity the shadow's " +
				"measured density (on the ground-truth set within 0.01 of the true density on average).",
			"Each file's data: the background colour found, the share of the image kept as the object, the border's " +
				"confidence and the cut's quality (cut_quality).",
		},
		Outputs: tasks.DocsOutputs{
			Count:          fmt.Sprintf("One cut-out per entry of images (1 to %d).", maxImages),
			CountDependsOn: []string{"images"},
			Order:          new("The order of images."),
			AbsentWhen: new(
				"An image whose background is not separable (confidence under 0.8: less than 80% of its " +
					"border within tolerance of one smooth " +
					"backdrop — a scene or busy photograph —, or nothing left but background) gives no file and is not charged; " +
					"the summary carries output_not_produced naming the image and the reason. When no image works the job fails " +
					"with processing_failed and the reason.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text:  inputFormats + " Transparent pixels count as background.",
			},
			{Key: "input_count", Title: "Input count", Text: fmt.Sprintf("1 to %d images.", maxImages)},
			{Key: "output_format", Title: "Output format", Text: "PNG, RGBA; the colour profile is kept."},
			{Key: "output_resolution", Title: "Output resolution", Text: "The input's, after EXIF orientation."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: fmt.Sprintf("1 to %d (images).", maxImages)},
		}, commonSpecs()...),
		Limitations: []string{
			"Backdrops must be plain or evenly graded: on a scene or a busy photograph (confidence " +
				"under 0.8: under 80% of the border near one " +
				"smooth backdrop) no cut-out is made and the summary says why; the output's confidence says how plain the " +
				"border was.",
			"Shadows are removed, or kept as a neutral layer with keep_shadow: a shadow is a darker backdrop of the same " +
				"hue, down to half its brightness, or to a third where the shade is smooth all round (a contact shadow's core); " +
				"a grey body in those tones is kept where its outline on the backdrop is a hard step, flat inside, on its " +
				"sides and top (the contact is closed by the outline's convex hull: a grey kettle on white, 0.958); a grey " +
				"part with a soft outline, touching its shadow, can be removed with it. A shadow the outline's faint lines " +
				"wall in with the product (a contact shadow reads as a faint line) is removed where it lies on the floor: " +
				"a flat band of the backdrop's hue below or beside the product's base, darkening towards it (a box's cast " +
				"shadow on pale pink, a folded shirt's below it). One that climbs the product's side (a shirt seen from " +
				"above), a contact shadow under a tall pale product, or one joined to a glossy floor's reflection can stay " +
				"(a chrome kettle: 0.42 of its shadow kept, a cream candle: 0.28). A hard cast shadow (a key light's, " +
				"with a sharp edge) is removed where the light falls across its edge by one grey factor into a flat " +
				"umbra, with no darker rim, along at least 0.4 of its outline, and it lies on the floor beside the " +
				"product (a white spray bottle's and a cream box's: under 0.01 kept); a part of the product in the " +
				"backdrop's hue is kept where the product lies above it or it ends above the floor (a charcoal " +
				"speaker's grey foot), and a part of exactly a shadow's shade with no rim, beside the product on the " +
				"floor, cannot be told from one.",
			"A part in the backdrop's own colour is kept only when a line or edge separates it from the backdrop (a white " +
				"sole with a seam on a white sweep); without one, or where its shaded side meets its own shadow at the same " +
				"tone, that stretch goes with the backdrop. A pale part the first cut left out but that a faint edge " +
				"of its own closes off from the frame (for at least 75% of its rim) is given back when it shares at " +
				"least 24 px and 7.5% of its rim with the cut, is no larger than the cut, lies beside no see-through " +
				"body and departs from the backdrop just beyond its wall by at least 3 levels or twice the noise (a " +
				"cream mug on linen 0.41 → 0.91, a translucent tumbler's lid 0.85 → 0.99, a rose perfume's pale foot " +
				"0.89 → 0.98); the backdrop inside a hanger, a frame, a ring or a handle matches the backdrop outside " +
				"and stays a hole, and a pale pocket with no backdrop reached from the frame beside it (a white box " +
				"walled in among other boxes) is not given back.",
			"An enclosed gap is removed when it shows the backdrop's colour inside a sharp rim, or when it is the " +
				"backdrop in shadow: not reached from the frame's backdrop, smooth, at least 80% of it the backdrop " +
				"darkened by one factor in every channel (a shadow lowers the light, not the hue) and no darker than " +
				"half of it, with the backdrop's grain, bounded by the product along at least 70% of its rim, and " +
				"holding no island of the product (a label's print inside a jar keeps the label). A stool's gaps under " +
				"its seat, a swim ring's middle and a chair's slatted back in their shadows are cleared; a gap in deeper " +
				"shadow may stay. A small enclosed spot of its own colour, " +
				"off the backdrop, stays the product (a shirt's grey buttons).",
			"See-through parts (glass, clear film) keep their transparency as alpha where the backdrop is seen to " +
				"continue inside them: on a graded backdrop (a lit sweep, at least 15 levels of it across the body, as the " +
				"border shows it) a body whose colours follow the backdrop behind it (I = αF + (1 − α)B, each channel's " +
				"slope alike) gets alpha 1 − slope, each pixel's alpha projected on its tint (a rim, denser, more), at least " +
				"0.15 (never a hole), " +
				"and its colour un-mixed, F = (I − (1 − α)B)/α, so it composites right on any background (photoshoot.create's " +
				"packshots lay it opaque, as photographed on its backdrop); rims, caps, " +
				"labels and highlights off the body's colour line stay opaque. The alpha is the body's opacity in the " +
				"one-layer matting model: how much of the backdrop it hides, not a refraction. On the glass set (-bench " +
				"CutoutGlass: green, amber, clear and frosted glass on lit sweeps, PNG and JPEG) the mean alpha error inside " +
				"the silhouette is 0.04 to 0.07, the cut-out over a new background within 3 to 7 levels of the truth on " +
				"average, the silhouette IoU 0.98 to 0.998. Clear glass as pale as the backdrop (a bottle's neck and " +
				"shoulders before a sweep's lit top, a whole bottle on a white sweep) is kept from its outline: a region " +
				"the product and its faint edge lines close off, reaching that outline, whose colours follow the graded " +
				"backdrop less steeply than the backdrop itself (a hole follows it exactly), is filled and made " +
				"see-through (the clear bottle at JPEG quality 80: IoU 0.98; on a white sweep 0.98); its rims are read " +
				"within 5 px of the region's border, as on white a rim's edges spread 4 to 5 px wide (a clear perfume " +
				"with a black cap on a white sweep: only its cap was kept, 0.11, now 0.86). On the fresh glass " +
				"set (-bench CutoutGlassFresh, drawn after that step) silhouettes are at IoU 0.94 to 0.99; a clear wine " +
				"glass's bowl keeps an alpha error of 0.2 and a slim clear bottle as a JPEG at quality 70 an IoU of 0.94. " +
				"On a flat backdrop nothing continues inside the outline: a tinted glass body cannot be told from an opaque " +
				"one of its tint, and comes out opaque, the backdrop seen through it baked in. Clear glass that the floods " +
				"give to a flat or faintly graded backdrop is kept when its outline holds it as glass's thin walls do: a " +
				"region the faint lines close (their gaps up to 8 px), facing the backdrop outside along at least 60% of " +
				"its rim (a handle's hole, bounded by the product, stays a hole), at least a tenth of the product, compact " +
				"and outlined at least 6 × the backdrop's noise off it, is filled and made see-through, its alpha read " +
				"from how much it dims the backdrop (a mason jar on a warm white sweep: IoU 0.99, alpha error 0.14). Glass " +
				"whose outline stays open wider than 8 px (a carafe's round body below its water line: 0.55; a wine " +
				"glass's bowl where its faint stem meets it: 0.17) or too faint to see is lost, unless it is a turned body: " +
				"a tumbler, carafe, wine glass or vase whose two walls mirror each other about one vertical axis on at " +
				"least 70% of its rows, over at least half its height, darker or lighter than the backdrop in its own hue " +
				"and fading inward as glass does (densest at its silhouette: a silver hoop's solid wall does not), is " +
				"filled between its walls where the cut left it empty, with the see-through alpha read from how much it " +
				"dims the backdrop (a clear tumbler on a sweep: IoU 0.04 → 0.83; the carafe 0.95, the wine glass 0.85). " +
				"A body whose opaque contents join its walls (a perfume's liquid) or a thick base is not filled that way. " +
				"An opaque product shaded just " +
				"as the sweep behind it is graded could be read as see-through; a white one, whose tint as glass would be " +
				"past white, stays opaque (a white pump bottle on a graded sweep). A narrow run of backdrop (under 7 px " +
				"across, at " +
				"least 42 px long) reaching into the product is given back to it: a highlight that meets the backdrop " +
				"with no edge does not cut the body (the green glass bottle of the light set: IoU 0.998); a real gap that " +
				"narrow and long is filled too.",
			"A white or light product needs a visible edge: a rim or hem at least about 6 levels darker than both its " +
				"sides, a sharp step, or shading or a hue that does not continue the backdrop. A white body lit to the " +
				"sweep's own tone on one side, no edge there at all, is kept from its shading when nothing else is " +
				"found: the long faint lines of its outline (on its shaded side) closed by their convex hull, kept where " +
				"at least a quarter of a region of it departs from the fitted backdrop by more than the noise allows (6 " +
				"levels, or 4 × the noise) — a flat sweep departs nowhere (a white bowl and a white fabric speaker on a " +
				"white sweep: 0.83 and 0.82; a pale blue towel on pale blue: 0.90); the hull's straight sides can keep a " +
				"sliver of backdrop where the body curves in, and since its outline on the lit side is drawn, not seen, " +
				"such a cut-out comes with the summary warning cutout_uncertain and is not charged. When still nothing is " +
				"found, the long edges of the image's departure from the fitted sweep and the faint lines, closed by " +
				"their convex hull, are the product where the hull holds its own marks (an inner line of at least 140 " +
				"px, lit pixels or a hue of its own) and at least 5% of it departs from the sweep; its outline is drawn " +
				"where none shows, so it too is delivered with cutout_uncertain and not charged (a white plate on a " +
				"seamless sweep, a white candle before a vignette, a folded white shirt: IoU 0.79, 0.85, 0.78, a back " +
				"corner or a band of soft shadow wrong). A product with no " +
				"visible edge at all is refused and not " +
				"charged, and the reason says which: \"an object was seen but could not be cut out\" (an outline or a " +
				"shading is there but no edge separates it from the backdrop all round) or \"no object was found\" " +
				"(nothing in the image differs from its backdrop). Only when nothing is found " +
				"at the tolerance asked, it looks again at one scaled to the backdrop's noise (4 × the noise, at least 4) " +
				"and keeps what is plainly there: a compact region well off the backdrop whose outline closes, not " +
				"spread along the border (a small cream ring on a white sweep: IoU 0.975); an empty backdrop (plain, " +
				"noisy, JPEG, graded, textured plaster or felt) stays refused. A product in the backdrop's own tone (grey " +
				"on grey, black on charcoal, pale blue on pale blue) is told from a shadow by its edge, in units of the " +
				"backdrop's noise: a body that holds its tone up to its outline and steps there (at least 8 levels or 5 " +
				"× the noise), where a shadow fades into its penumbra. A handle walled by its two " +
				"faint rims is kept with its body; the outline can carry a pixel or two of the backdrop or of the contact " +
				"shadow where the rim meets it (ragged on a white mug as a JPEG at quality 70).",
			"A shaded part of the product as dark as its contact shadow and of the backdrop's hue (a ball's white panel " +
				"on its shadow side) is kept where it lies inside the convex hull of the rest and grows darker away from " +
				"it, as a shadow never does (a six-panel ball on off-white: 0.974); a sliver of it outside that hull can " +
				"be lost. A thin part darker than the backdrop (a grey handle, a pale blade) is kept where two faint " +
				"rims, each darker than it, wall it; the outline's last pixel beside a darker rim is read as a mix of " +
				"the backdrop and the rim (I = αF + (1 − α)B) and given to the backdrop when mostly backdrop, so no " +
				"pixel of backdrop rings a white mug or stays in its handle's hole (a cream cup on cream: 0.963, its " +
				"hole cleared). A light body whose faint outline is broken for up to 20 pixels (lens blur, JPEG) is kept " +
				"whole when its tones are its own and more than a shadow's (a pale grey soap bottle on a warm grey: " +
				"0.969). Shots under the IoU of 0.93 on our sets: a pair of scissors' grey handles on a pale sweep " +
				"(0.860: part of the lit ring's shaded half is lost) and a white vase off the centre (0.911). " +
				"White fills inside a drawn outline are kept also where the outline meets a " +
				"coloured fill (a drawn house's walls under a red roof: 1.000), where the fill holds islands of other " +
				"colours (a drawn cat's pink ears and grey patch: 0.996) and where a grey fill is drawn against the " +
				"outline (an owl's wings: 0.996). A region a faint " +
				"outline keeps is the product when its tones do not continue the backdrop's, or when its outline is a " +
				"step onto a flat backdrop along at least 30% of it (clear glass: 0.973 to 0.976, 0.949 on mid grey). A " +
				"product touching the frame is closed by its outline and the frame (a white jug: 0.985, a white box: 0.969). " +
				"A product cut by the frame shows on the border as a stretch of an even colour off the backdrop (at " +
				"least 2.5% of the border, such stretches under 40% of it in all): that stretch is left out of the " +
				"backdrop's fit, so the product is not read as backdrop, and a body running off the frame is never " +
				"taken for see-through glass (a sage towel on pink cut by the frame 0.53 → 0.998, by two edges " +
				"0.9996, a beech board cut on the left 0.19 → 0.99, a white sleeve cut at the top 0.88 → 0.96, a " +
				"white plate cut on the right 0.99); the confidence still counts the stretch as not the backdrop.",
			"The confidence threshold is 0.8: the share of the border within tolerance of the fitted backdrop. Under it " +
				"the image gives no file, is not charged, and the summary says why (a product in a scene or before a busy wall).",
			cutQualityLimitation,
			"Photographed shots, with lens blur, sensor noise and JPEG, are cut much less well than drawn ones. On " +
				"our photograph-like sets (white, light, chrome, steel, glass and dark products with contact and cast " +
				"shadows on tinted, graded and textured sweeps) the mean IoU is 0.91 on the set worked on (-bench " +
				"CutoutFifth, 12 shots), 0.82 on the hard-shadow and chrome set (CutoutShine, 6), 0.93 on the tonal " +
				"set (CutoutTonal, 8), 0.95 on the enclosed-gaps set (CutoutHoles, 5: a stool's gaps and a swim " +
				"ring's middle in their shadows cleared; a white watering can's hole in shadow 0.79), 0.93 on the sixth " +
				"set (CutoutSixth, 12, held out when written), 0.88 on the seventh (CutoutSeventh, 15; 0.51 when held " +
				"out), 0.83 on the eighth (CutoutEighth, 16; 0.54 when held out), 0.66 on the ninth (CutoutNinth, 21; " +
				"0.44 when held out, worked on since: a white sneaker with a hard shadow 0.04, a card holder on oak " +
				"planks and a backpack cut by the frame refused for their busy border, a chrome kettle 0.21, black " +
				"headphones on charcoal 0.07, a necklace's chain on velvet 0.05, a bicycle frame 0.63, a drawing's white " +
				"fills lost 0.28; a white plate, a white candle and a folded white shirt kept from their hull, 0.78 to " +
				"0.84, warned; since then the drawing's white fills are kept, 0.996) and 0.79 on the tenth, held out " +
				"and drawn by an engineer who changed no code " +
				"(CutoutTenth, 19: a white watering can whose hole lies in soft shadow 0.54 and a clear beer mug with " +
				"a glass handle 0.78, both kept from their hull with their handle's hole, warned, a whisk's wires on " +
				"tweed 0.19, a chrome moka pot 0.30, a basket on bouclé 0.59 " +
				"with its handle's hole kept, a black skillet on walnut 0.74, a white hoodie 0.95; a guitar cut by the " +
				"frame refused for its busy border; a white card with no edge at all refused) and 0.73 on the eleventh, held " +
				"out likewise (CutoutEleventh, 20: a white towel folded on marble 0.00, a clear tea cup with a handle 0.03, " +
				"a white sneaker off centre 0.19, a white plate cut by the frame 0.31, a clear jar 0.76, a gold chain on " +
				"linen 0.76, a terracotta vase on terrazzo 0.86, pale earphones 0.85, a white teapot 0.89 with its handle's " +
				"hole kept; a black kettlebell on felt refused; a white napkin with no edge refused). Under 0.93 on the " +
				"eighth: a white runner 0.65 (its midsole lost), a white gift box 0.85 kept from its hull with its hard " +
				"shadow (warned, uncharged: the hull backs a fragment the cut kept only where it adds mostly the " +
				"product, not the sweep seen through a ring or clear glass, nor mostly a cast shadow), pink soap on pink 0.20, a " +
				"black camera on dark concrete 0.06, a cream mug on linen 0.41 (its pale body given back since: 0.91; a " +
				"clear perfume kept only as its cap and liquid, 0.62, is filled to its outline since: 0.976, its body " +
				"see-through). " +
				"Under 0.93 on the " +
				"others: pale grey headphones 0.52, a sage cushion cut by the frame at a corner 0.84 (warned); on the " +
				"clear glass on white set (CutoutGlassWhite, 9 shots, mean 0.88) a glass mug whose open top shows no " +
				"lip 0.62, a wine glass without its stem 0.83 (warned) and a thick-handled glass mug at JPEG quality " +
				"72 0.87, its handle's hole filled and the whole kept opaque; " +
				"a white bowl and a white fabric speaker on a white sweep " +
				"(0.84, 0.83) and a pale blue towel on pale blue (0.90), kept from their shading and delivered " +
				"with the cutout_uncertain warning, uncharged; clear glass on pale sweeps whose outline is open and " +
				"that is not a turned body (a turned carafe 0.95 and wine glass 0.85 are filled between their walls); " +
				"chrome (0.62 " +
				"to 0.86); a white lamp's thin stem (0.66); white products whose shaded side meets the sweep with " +
				"no edge (a mug 0.68 with its hard shadow joined to it, a sneaker 0.78); a white teapot 0.85. A " +
				"pale product of the backdrop's lightness but another hue is kept where a colour edge (CIELAB) closes " +
				"round it (a pink planter 0.85, a cream beanie 0.98, a spray bottle 0.97); a smooth product on a " +
				"visibly textured backdrop (linen, concrete, wood, knit) is kept where its texture is not the border's, its " +
				"outline settled onto the strongest edge between the two by a watershed on the gradient (on the textured " +
				"set, CutoutTexture, 10 shots: mean 0.94; a wallet on wood 0.95 with a ragged top edge, a grey and a " +
				"red speaker on concrete 0.98, the specks of grain the floods keep apart from the product dropped; " +
				"a box on kraft 0.91); a weave finer than the " +
				"lens resolves (a cream mug on linen: 0.41 and 0.68) is no texture to it, and the product is cut by colour " +
				"and edge alone; " +
				"a contact shadow's band that is the backdrop's shade in every channel and fades from the contact is " +
				"removed. A hard cast shadow apart from the " +
				"product is removed (a pitcher in hard sun: 0.97, its " +
				"shadow gone; a kettle, a box, a mug and a white sneaker under hard sun 0.97 to 0.98, their shadows " +
				"not taken for clear glass). When nothing else is found, a closed faint outline alone is the " +
				"product: a region the faint lines shut off, compact, its outline at least 6 × the backdrop's noise off " +
				"the backdrop, its " +
				"spurs opened off it (a clear tumbler on a white sweep: IoU 0.94, a black wallet on charcoal felt: " +
				"0.95); where its inside continues the backdrop and the rest is thin walls darker than it, it is clear " +
				"glass, made see-through with an alpha read from how much it dims the backdrop behind it (the densest " +
				"2% opaque, at least 0.15: the tumbler's alpha error 0.12); clear glass the floods lose whose outline " +
				"closes round it is filled the same way (see the see-through limitation). cut_quality warns of most of " +
				"these cuts and does not charge them, not all (on the held-out tenth set, 6 of its 7 cuts under an " +
				"IoU of 0.9, all but the basket, and 1 of its 9 at 0.95 or over, a boot on slate; on the " +
				"held-out eleventh, 7 of its 9 under 0.9, not the gold chain nor the teapot, and 1 of its 9 at 0.95 or " +
				"over, a mint bottle); for such products " +
				"an operator can route image.remove_background " +
				"to a model server (see the engines guide).",
			"On JPEG, whose colour is stored at half resolution, some edges keep more of the backdrop's colour: on the " +
				"ground-truth set up to 0.24 of it (a bottle's base on its dark contact shadow) and 0.14 (a mug on a saturated " +
				"blue), against at most 0.03 on the PNG shots.",
		},
		Errors: tasks.ErrorList(apierr.FieldNotAccepted,
			apierr.ImagesRequired, apierr.TooManyImages, apierr.ImageNotPublic, apierr.RequestRefused,
			apierr.CutoutUncertain),
		Related: []tasks.Related{
			{Task: "image.crop", Relation: "before"},
			{Task: "image.resize", Relation: "after"},
		},
	}
}
