package photoshoot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

type obj = map[string]any

// The bounds of a shoot.
const (
	// maxOutputs is the most shots one photoshoot.create job makes.
	maxOutputs = 12
	maxPoses   = 8
	maxCount   = 4
	// shotQuality is the JPEG quality of the shots.
	shotQuality = 92
)

// The handle patterns of the fields that take library records.
const (
	backgroundPattern = `^(background:[A-Za-z0-9_-]{1,64}|#[0-9A-Fa-f]{6})$`
	modelPattern      = `^model:[A-Za-z0-9_-]{1,64}$`
	posePattern       = `^(pose|pose_preset):[A-Za-z0-9_-]{1,64}$`
	presetPattern     = `^pose_preset:[A-Za-z0-9_-]{1,64}$`
)

func productProp(what string) obj {
	return obj{"type": "string", "pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
		"description": what + " A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
		"examples":    []any{"file:abc123"}}
}

func create() *tasks.Definition {
	return &tasks.Definition{
		Name: "photoshoot.create", Title: "Create a product photoshoot",
		Description: "Composites product photographs into a consistent set of packshots: cut out, framed on a studio " +
			"colour (optionally by Amazon's, Zalando's or Shopify's rules) or stood at true scale in a drawn scene, with one " +
			"soft contact shadow.",
		Category: tasks.CategoryPhotoshoots, Unit: "shot", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.InputSchema[createInput](
			"photoshoot.create input",
			"Product images by view, a backdrop, an optional marketplace preset and the poses to shoot.",
			marketplaceVariant,
		)),
		OutputSchema: shotSchema(),
		Runner:       tasks.Typed[createInput](createRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 3},
		RefSides: map[string]tasks.ImageSides{"product": {Min: 16, Max: 8192}, "product_back": {Min: 16, Max: 8192},
			"product_side": {Min: 16, Max: 8192}, "product_three_quarter": {Min: 16, Max: 8192}},
		Refuse:   tasks.Refusal(refuseCreate),
		Variant:  marketplaceVariant,
		Docs:     createDocs(),
		Examples: createExamples(),
		Produces: []string{"photoshoot"},
		Uses:     []string{"cut_out", "background", "pose"},
	}
}

func shotSchema() json.RawMessage {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Shot data", "type": "object", "description": "The data of one shot of a " +
			"photoshoot.",
		"properties": obj{
			"photoshoot": obj{
				"type":        []any{"string", "null"},
				"description": "The record, photoshoot:<id>; null in a catalogue example.",
			},
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The shot's number: pose by pose, count_per_pose shots each.",
			},
			"pose":  obj{"type": "string", "description": "The pose, pose:<id>."},
			"angle": obj{"type": "string", "enum": angles, "description": "The pose's angle."},
			"variant": obj{
				"type":        "integer",
				"minimum":     0,
				"maximum":     maxCount - 1,
				"description": "The shot's number within its pose: 0 centred, 1 nearer, 2 further, 3 off-centre.",
			},
			"background":  obj{"type": "string", "description": "The backdrop as sent."},
			"setting":     obj{"type": "string", "enum": []any{settingStudio, settingScene}},
			"marketplace": obj{"type": "string", "description": "The marketplace preset framing the shot, or none."},
			"product_image": obj{
				"type":        "string",
				"enum":        []any{"product", "product_back", "product_side", "product_three_quarter"},
				"description": "The input field of the product image the shot shows.",
			},
			"fill": obj{
				"type": "number",
				"description": "The share of the frame the product fills: its box's width over the shot's or its height over " +
					"the shot's, whichever is larger.",
			},
			"width":  obj{"type": "integer", "minimum": 1},
			"height": obj{"type": "integer", "minimum": 1},
			"cut_out": obj{
				"type":        "boolean",
				"description": "Whether the product's plain background was removed; false: the image was laid down whole.",
			},
			"product_box": boxSchema("Where the product lies in the shot, in pixels."),
			"floor_y": obj{
				"type":        "integer",
				"description": "The line the product stands on, in pixels from the top; its contact shadow lies along it.",
			},
			"subject_height": obj{
				"type":        "number",
				"description": "The product's height over the shot's; in a scene it grows as it stands nearer.",
			},
		},
		"required": []string{
			"photoshoot",
			"index",
			"pose",
			"angle",
			"variant",
			"background",
			"setting",
			"marketplace",
			"product_image",
			"fill",
			"width",
			"height",
			"cut_out",
			"product_box",
			"floor_y",
			"subject_height",
		},
	})
}

func boxSchema(description string) obj {
	return obj{"type": "object", "description": description, "required": []string{"x", "y", "width", "height"},
		"properties": obj{
			"x":      obj{"type": "integer"},
			"y":      obj{"type": "integer"},
			"width":  obj{"type": "integer"},
			"height": obj{"type": "integer"},
		}}
}

// shotResolutions are the long side of a photoshoot's shots, in pixels:
// only photoshoot.create's resolution takes them, so they are its schema's
// enum and have no vocabulary name.
func shotResolutions() []tasks.VocabValue {
	return []tasks.VocabValue{
		{Value: "1024", Description: "Web shop and social sizes.", Default: true, ChooseWhen: "you are unsure"},
		{Value: "1536", Description: "Zoomable product pages."},
		{Value: "2048", Description: "Print catalogues and large screens.", ChooseWhen: "the shots go to print"},
	}
}

// poseList is poses as sent: a list of poses and presets, or one preset
// sent on its own (Bare). Absent, it is empty.
type poseList struct {
	Refs []string
	Bare bool
}

// UnmarshalJSON reads either form of poses.
func (p *poseList) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*p = poseList{Refs: []string{one}, Bare: true}
		return nil
	}
	*p = poseList{}
	return json.Unmarshal(b, &p.Refs)
}

// size is the pixel size of a shot of the input: the marketplace's, or
// the long side and aspect asked.
func size(in *createInput) (int, int) {
	if m, ok := marketplaceOf(in.Marketplace); ok {
		return m.w, m.h
	}
	long, err := strconv.Atoi(in.Resolution)
	if err != nil {
		long = 1024 // validation admits only the vocabulary's values
	}
	aw, ah := imgfam.AspectTerms(in.AspectRatio)
	if aw >= ah {
		return long, long * ah / aw
	}
	return long * aw / ah, long
}

type createRunner struct{}

// shots is the number of shots of an input: poses (presets counted by
// their poses; a handle the library lacks, refused at submit, counted as
// one) times count_per_pose.
func shots(in *createInput) int {
	refs := in.Poses.Refs
	poses := len(refs)
	if poses == 0 {
		poses = 1 // one front shot
	}
	for _, r := range refs {
		if pr, ok := presetByHandle(r); ok {
			poses += len(pr.Angles) - 1
		}
	}
	return poses * max(in.CountPerPose, 1)
}

// Plan asks for one shot per pose and count. An input over maxOutputs is
// refused at submit; the plan (and so the estimate) stops at the ceiling.
// The first shot prepares the product the others share (productCache).
func (createRunner) Plan(in *createInput) tasks.Plan {
	return tasks.Plan{Steps: min(shots(in), maxOutputs), Phase: "compositing shots", FirstAlone: true}
}

// AdmitErrors is what Admit answers.
func (createRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.TooManyOutputs, apierr.RequestRefused}
}

// Admit checks the backdrop and poses against the library, bounds the
// shots, refuses a marketplace packshot of a product that clearly cannot
// be cut out (refuseUncuttable), and opens the photoshoot record.
func (createRunner) Admit(ctx context.Context, env tasks.Env, in *createInput) error {
	bg := in.Background
	if strings.HasPrefix(bg, kindBackground+":") {
		if _, ok := backgroundByHandle(bg); !ok {
			return apierr.Newf(apierr.InvalidRequest, "No background %s is in the library; list them at GET "+
				"/v1/refs/background.", bg).
				WithField("background")
		}
	}
	for i, ref := range in.Poses.Refs {
		field := fmt.Sprintf("poses[%d]", i)
		if in.Poses.Bare {
			field = "poses"
		}
		_, isPose := poseByHandle(ref)
		_, isPreset := presetByHandle(ref)
		if !isPose && !isPreset {
			return apierr.Newf(apierr.InvalidRequest, "No pose or pose preset %s is in the library; list them at GET "+
				"/v1/refs/pose and GET /v1/refs/pose_preset.", ref).
				WithField(field)
		}
	}
	if n := shots(in); n > maxOutputs {
		field := "poses"
		if in.CountPerPose > 1 {
			field = "count_per_pose"
		}
		return apierr.Newf(apierr.TooManyOutputs, "The shoot would make %d shots (%d poses × %d); photoshoot.create makes "+
			"at most %d. Send fewer poses or a lower count_per_pose.",
			n, len(resolvePoses(in.Poses.Refs, "")), max(in.CountPerPose, 1), maxOutputs).
			WithField(field)
	}
	if err := refuseUncuttable(ctx, in); err != nil {
		return err
	}
	return openRecord(ctx, env, kindPhotoshoot, "Photoshoot", shootFields(in))
}

// shootRecord is a photoshoot record's fields; its images are its job's
// outputs, answered with the record.
type shootRecord struct {
	Product      string            `json:"product"`
	Views        map[string]string `json:"views"`
	Background   string            `json:"background"`
	Setting      string            `json:"setting"`
	Marketplace  string            `json:"marketplace"`
	Poses        []string          `json:"poses"`
	CountPerPose int               `json:"count_per_pose"`
	Width        int               `json:"width"`
	Height       int               `json:"height"`
}

// shootFields are the record fields of a validated input.
func shootFields(in *createInput) shootRecord {
	w, h := size(in)
	bg := backdrop(in)
	r := shootRecord{Product: in.Product, Views: map[string]string{}, Background: in.Background,
		Setting: bg.Setting, Marketplace: in.Marketplace, CountPerPose: max(in.CountPerPose, 1), Width: w, Height: h}
	for _, a := range angles {
		if img := in.viewImage(a); img != "" && a != angleWalking {
			r.Views[a] = img
		}
	}
	for _, p := range resolvePoses(in.Poses.Refs, "") {
		r.Poses = append(r.Poses, p.Handle())
	}
	return r
}

// backdrop is the input's backdrop: a library one or a studio colour.
func backdrop(in *createInput) Background {
	ref := in.Background
	if b, ok := backgroundByHandle(ref); ok {
		return b
	}
	return studioOf(ref)
}

// Step composites shot i: pose i / count_per_pose, placement i % count.
func (createRunner) Step(ctx context.Context, in *createInput, i int) (tasks.Output, error) {
	count := max(in.CountPerPose, 1)
	ps := resolvePoses(in.Poses.Refs, "")
	if i < 0 || i >= len(ps)*count {
		return tasks.Output{}, fmt.Errorf("photoshoot.create: no output %d", i)
	}
	pose := ps[i/count]
	field := viewFields[pose.Angle]
	ref := in.viewImage(pose.Angle)
	if ref == "" {
		// refuseCreate refuses it at submit.
		return tasks.Output{}, &tasks.StepError{Code: contract.ErrTypeProcessing,
			Message: field + " is needed for the " + pose.Angle + " pose."}
	}
	r := tasks.Ref{Field: field, Ref: ref}
	data, err := tasks.LoadRef(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	prod, err := productCache.get(ctx, data, func() (product, error) {
		src, err := imgfam.Decode(r, data)
		if err != nil {
			return product{}, err
		}
		return prepareProduct(ctx, src)
	})
	if err != nil {
		return tasks.Output{}, err
	}
	w, h := size(in)
	sh := shot{bg: backdrop(in), pose: pose, variant: i % count, w: w, h: h, reflection: in.Reflection}
	if m, ok := marketplaceOf(in.Marketplace); ok {
		if !prod.cut {
			// A marketplace takes the product alone, never the photo pasted
			// whole: no shot, not charged, and the reason.
			return tasks.Output{}, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: fmt.Sprintf(
				"%s (%s) could not be cut out for the %s packshot: %s; send a shot on a plain backdrop or a transparent PNG.",
				field, ref, in.Marketplace, prod.why)}
		}
		sh.market = &m
	}
	if in.ProductHeightCM != nil {
		sh.heightCM = *in.ProductHeightCM
	}
	res := sh.drawItem(prod.item(pose.Angle))
	jpg, err := encodeJPEG(res.img)
	if err != nil {
		return tasks.Output{}, err
	}
	if i == len(ps)*count-1 {
		if err := completeRecord(ctx, kindPhotoshoot, shootFields(in)); err != nil {
			return tasks.Output{}, err
		}
	}
	fill := math.Max(float64(res.box.Dx())/float64(w), float64(res.box.Dy())/float64(h))
	return tasks.Output{Data: jpg, MediaType: "image/jpeg", Ext: "jpg", Meta: map[string]any{
		"photoshoot": handleOf(ctx, kindPhotoshoot), "index": i, "pose": sh.pose.Handle(),
		"angle": sh.pose.Angle, "variant": sh.variant, "background": in.Background, "setting": sh.bg.Setting,
		"marketplace": in.Marketplace, "product_image": field, "fill": round3(fill), "width": w, "height": h,
		"cut_out": prod.cut, "product_box": boxOf(res.box), "floor_y": res.floor,
		"subject_height": round3(res.scale),
	}}, nil
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// boxOf writes a rectangle as {x, y, width, height}.
func boxOf(r image.Rectangle) map[string]any {
	return map[string]any{"x": r.Min.X, "y": r.Min.Y, "width": r.Dx(), "height": r.Dy()}
}

// encodeJPEG encodes a shot.
func encodeJPEG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: shotQuality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
