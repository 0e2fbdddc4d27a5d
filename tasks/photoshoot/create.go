package photoshoot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
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
	props := obj{
		"product": productProp(
			"The product image: a packshot on a plain background is cut out (as image.remove_background does); an image without a plain background is laid down whole. With model, the garment to dress the figure in.",
		),
		"background": obj{"type": "string", "pattern": backgroundPattern, "maxLength": 100,
			"description": "A library backdrop, background:<id> (GET /v1/refs/background: studio colours and scenes), or a studio colour #RRGGBB.",
			"examples":    []any{"background:bg_studio_white", "#F3EFE8"}},
		"model": obj{"type": "string", "pattern": modelPattern, "maxLength": 100,
			"description": "A figure to dress the product on: a base model or a saved style, model:<id> (GET /v1/refs/model). Without it the shots are packshots of the product."},
		"poses": obj{"oneOf": []any{
			obj{"type": "array", "minItems": 1, "maxItems": maxPoses,
				"items": obj{
					"type":      "string",
					"pattern":   posePattern,
					"maxLength": 100,
					"examples":  []any{"pose:ps_woman_front", "pose_preset:pp_catalogue"},
				},
				"description": fmt.Sprintf("1 to %d poses or presets.", maxPoses)},
			obj{"type": "string", "pattern": presetPattern, "maxLength": 100,
				"description": "One pose preset, standing for its poses.", "examples": []any{"pose_preset:pp_catalogue"}},
		},
			"description": fmt.Sprintf(
				"Poses, pose:<id> (GET /v1/refs/pose), or pose presets, pose_preset:<id>, each standing for its poses; 1 to %d entries, or one preset sent on its own. With a model every pose must be of the model's gender and a preset takes the poses of that gender. Without a model a pose is a camera angle on the product. Absent: one front shot.",
				maxPoses,
			),
			"examples": []any{[]any{"pose:ps_woman_front", "pose:ps_woman_back"}, "pose_preset:pp_catalogue"}},
		"count_per_pose": obj{"type": "integer", "minimum": 1, "maximum": maxCount, "default": 1,
			"description": "Shots per pose, each placed differently (centred, nearer, further, off-centre)."},
		"resolution":   tasks.FieldEnum(shotResolutions(), "The long side of every shot, in pixels."),
		"aspect_ratio": tasks.VocabEnum(imgfam.AspectVocab(), "The shape of every shot."),
	}
	return &tasks.Definition{
		Name: "photoshoot.create", Title: "Create a product photoshoot",
		Description: "Composites one product image into a consistent set of catalogue shots: cut out, laid on a studio colour or a drawn scene with a floor shadow, or dressed on a drawn fashion figure, one shot per pose and placement.",
		Category:    tasks.CategoryPhotoshoots, Unit: "shot", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema(
			"photoshoot.create input",
			"A product image, a backdrop, an optional model and the poses to shoot.",
			props,
			[]string{"product", "background"},
			nil,
		)),
		OutputSchema: shotSchema(),
		Runner:       tasks.Typed[createInput](createRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 3},
		RefSides:     map[string]tasks.ImageSides{"product": {Min: 16, Max: 8192}},
		Docs:         createDocs(),
		Examples:     createExamples(),
		Produces:     []string{"photoshoot"},
		Uses:         []string{"cut_out", "background", "pose"},
	}
}

func shotSchema() json.RawMessage {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Shot data", "type": "object", "description": "The data of one shot of a photoshoot.",
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
			"background": obj{"type": "string", "description": "The backdrop as sent."},
			"setting":    obj{"type": "string", "enum": []any{settingStudio, settingScene}},
			"model": obj{
				"type":        []any{"string", "null"},
				"description": "The model dressed, or null for a packshot.",
			},
			"width":  obj{"type": "integer", "minimum": 1},
			"height": obj{"type": "integer", "minimum": 1},
			"cut_out": obj{
				"type":        "boolean",
				"description": "Whether the product's plain background was removed; false: the image was laid down whole.",
			},
			"product_box": boxSchema("Where the product (or the garment) lies in the shot, in pixels."),
			"floor_y": obj{
				"type":        "integer",
				"description": "The line the product or figure stands on, in pixels from the top; the shadow lies along it.",
			},
			"subject_height": obj{
				"type":        "number",
				"description": "The product's or figure's height over the shot's; in a scene it grows as it stands nearer.",
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
			"model",
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

// createInput is a photoshoot.create request, defaults applied.
type createInput struct {
	Product      string   `json:"product"`
	Background   string   `json:"background"`
	Model        *string  `json:"model"`
	Poses        poseList `json:"poses"`
	CountPerPose int      `json:"count_per_pose"`
	Resolution   string   `json:"resolution"`
	AspectRatio  string   `json:"aspect_ratio"`
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

// size is the pixel size of a shot of the input.
func size(in *createInput) (int, int) {
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
func (createRunner) Plan(in *createInput) tasks.Plan {
	return tasks.Plan{Steps: min(shots(in), maxOutputs), Phase: "compositing shots"}
}

// AdmitErrors is what Admit answers.
func (createRunner) AdmitErrors() []apierr.Code { return []apierr.Code{apierr.TooManyOutputs} }

// Admit checks the backdrop, model and poses against the library and the
// account's saved styles, bounds the shots, and opens the photoshoot
// record.
func (createRunner) Admit(ctx context.Context, env tasks.Env, in *createInput) error {
	bg := in.Background
	if strings.HasPrefix(bg, models.RecordBackground+":") {
		if _, ok := backgroundByHandle(bg); !ok {
			return apierr.Newf(apierr.InvalidRequest, "No background %s is in the library; list them at GET /v1/refs/background.", bg).
				WithField("background")
		}
	}
	gender := ""
	if in.Model != nil {
		ref := *in.Model
		m, err := readModel(ctx, env, "model", ref)
		if err != nil {
			return err
		}
		if !m.Ready {
			return apierr.Newf(apierr.InvalidRequest, "The model %s is still being created; read it at GET /v1/files/%s and send again when its status is ready.", ref, ref).
				WithField("model")
		}
		gender = m.Body.Gender
	}
	for i, ref := range in.Poses.Refs {
		field := fmt.Sprintf("poses[%d]", i)
		if in.Poses.Bare {
			field = "poses"
		}
		p, isPose := poseByHandle(ref)
		_, isPreset := presetByHandle(ref)
		switch {
		case !isPose && !isPreset:
			return apierr.Newf(apierr.InvalidRequest, "No pose or pose preset %s is in the library; list them at GET /v1/refs/pose and GET /v1/refs/pose_preset.", ref).
				WithField(field)
		case isPose && gender != "" && p.Gender != gender:
			return apierr.Newf(apierr.InvalidRequest, "The pose %s is a %s's; the model is a %s. Send pose:ps_%s_%s.", ref, p.Gender, gender, gender, p.Angle).
				WithField(field)
		}
	}
	if n := shots(in); n > maxOutputs {
		field := "poses"
		if in.CountPerPose > 1 {
			field = "count_per_pose"
		}
		return apierr.Newf(apierr.TooManyOutputs, "The shoot would make %d shots (%d poses × %d); photoshoot.create makes at most %d. Send fewer poses or a lower count_per_pose.",
			n, len(resolvePoses(in.Poses.Refs, "")), in.CountPerPose, maxOutputs).
			WithField(field)
	}
	return openRecord(ctx, env, models.RecordPhotoshoot, "Photoshoot", shootFields(in, gender))
}

// shootRecord is a photoshoot record's fields; its images are its job's
// outputs, answered with the record.
type shootRecord struct {
	Product      string   `json:"product"`
	Background   string   `json:"background"`
	Setting      string   `json:"setting"`
	Model        *string  `json:"model"`
	Poses        []string `json:"poses"`
	CountPerPose int      `json:"count_per_pose"`
	Width        int      `json:"width"`
	Height       int      `json:"height"`
}

// shootFields are the record fields of a validated input for a model of gender.
func shootFields(in *createInput, gender string) shootRecord {
	w, h := size(in)
	bg := backdrop(in)
	r := shootRecord{Product: in.Product, Background: in.Background, Setting: bg.Setting,
		Model: in.Model, CountPerPose: in.CountPerPose, Width: w, Height: h}
	for _, p := range resolvePoses(in.Poses.Refs, gender) {
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
	count := in.CountPerPose
	var body *Body
	if in.Model != nil {
		env, _ := tasks.EnvOf(ctx)
		m, err := readModel(ctx, env, "model", *in.Model)
		if err != nil {
			return tasks.Output{}, inStep(err)
		}
		body = &m.Body
	}
	gender := ""
	if body != nil {
		gender = body.Gender
	}
	ps := resolvePoses(in.Poses.Refs, gender)
	if i < 0 || i >= len(ps)*count {
		return tasks.Output{}, fmt.Errorf("photoshoot.create: no output %d", i)
	}
	src, err := imgfam.Load(ctx, tasks.Ref{Field: "product", Ref: in.Product})
	if err != nil {
		return tasks.Output{}, err
	}
	prod, err := prepareProduct(ctx, src)
	if err != nil {
		return tasks.Output{}, err
	}
	w, h := size(in)
	sh := shot{bg: backdrop(in), body: body, pose: ps[i/count], variant: i % count, w: w, h: h}
	res := sh.draw(prod.img)
	data, err := encodeJPEG(res.img)
	if err != nil {
		return tasks.Output{}, err
	}
	if i == len(ps)*count-1 {
		if err := completeRecord(ctx, models.RecordPhotoshoot, shootFields(in, gender)); err != nil {
			return tasks.Output{}, err
		}
	}
	var model any
	if in.Model != nil {
		model = *in.Model
	}
	return tasks.Output{Data: data, MediaType: "image/jpeg", Ext: "jpg", Meta: map[string]any{
		"photoshoot": handleOf(
			ctx,
			models.RecordPhotoshoot,
		), "index": i, "pose": sh.pose.Handle(), "angle": sh.pose.Angle, "variant": sh.variant,
		"background": in.Background, "setting": sh.bg.Setting, "model": model, "width": w, "height": h, "cut_out": prod.cut,
		"product_box": boxOf(res.box), "floor_y": res.floor, "subject_height": float64(int(res.scale*1000+0.5)) / 1000,
	}}, nil
}

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
