// Package image is the image_editing family: image.resize (Lanczos
// resampling to a size), image.crop (to an aspect ratio, centred or on the
// most interesting region), image.remove_background (a transparent cut-out
// of a product on a plain background) and image.recolour (an image's
// dominant colours mapped onto a palette). Every task is deterministic
// image processing on the caller's pixels; no generative model is used.
package image

import (
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

type obj = map[string]any

// maxImages bounds the images of one job: one output per image.
const maxImages = 8

// Family is everything the image family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:         "image",
		Tasks:        []*tasks.Definition{resize(), crop(), removeBackground(), recolour()},
		Vocabularies: []tasks.Vocabulary{fitVocab(), formatVocab(), aspectVocab(), anchorVocab(), AreaVocab()},
		Concepts: []tasks.Concept{{
			Name: "cut_out", Short: "A product image whose background is transparent, so it can be laid on any page, colour " +
				"or scene.",
			Long: "A cut-out keeps the object's pixels and makes everything else transparent (alpha 0), with a soft edge " +
				"a few pixels wide so it sits on a new background without a hard fringe. image.remove_background makes cut-outs " +
				"of product shots taken on a plain, evenly lit background; it does not recognise objects, so busy or patterned " +
				"backgrounds cannot be separated.",
			Related: []string{"output_resolution"},
		}},
	}
}

// imagesProp is the list of input images: one output per image.
func imagesProp(what string) map[string]any {
	return obj{
		"type": "array", tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxImages,
		"items": obj{"type": "string", "pattern": tasks.RefPattern, "maxLength": 2048,
			"description": "A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL."},
		"description": fmt.Sprintf("The images to %s, 1 to %d; one output each, in this order.", what, maxImages),
		"examples":    []any{[]any{"file:abc123", "art:def456"}},
	}
}

// imagesRules answer images_required for a missing or empty list and
// too_many_images over maxItems.
var imagesRules = []tasks.ErrorRule{
	{Field: "images", Keyword: "required", Code: apierr.ImagesRequired},
	{Field: "images", Keyword: "minItems", Code: apierr.ImagesRequired},
	{Field: "images", Keyword: "maxItems", Code: apierr.TooManyImages},
}

// perImage plans one output per image.
func perImage(images []string, phase string) tasks.Plan {
	return tasks.Plan{Steps: len(images), Phase: phase}
}

// imageRef is the reference of output i: images[i].
func imageRef(images []string, i int) (tasks.Ref, error) {
	if i < 0 || i >= len(images) {
		return tasks.Ref{}, fmt.Errorf("image: no output %d", i)
	}
	return tasks.Ref{Field: fmt.Sprintf("images[%d]", i), Ref: images[i]}, nil
}

// formatProps are the output format fields of resize and crop; quality
// applies to jpeg only.
func formatProps(props obj) {
	props["format"] = tasks.VocabEnum(formatVocab(), "The file format of the outputs.")
	props["quality"] = obj{"type": "integer", "minimum": 1, "maximum": 100, "default": 90,
		"description": "JPEG quality, 1 to 100; format jpeg only."}
}

// formatVariant makes quality a jpeg-only field.
var formatVariant = &tasks.Variant{Field: "format", Default: "png", Only: map[string][]string{"quality": {"jpeg"}}}

// perOutput prices every output alike.
func perOutput(credits int64) tasks.Pricing {
	return tasks.Pricing{CreditType: contract.CreditService, PerOutput: credits}
}

// commonSpecs are the spec rows the family's tasks share: its terms.
func commonSpecs() []tasks.SpecRow {
	return tasks.Terms{
		CommercialUse:   "Allowed for images you hold the rights to.",
		Reproducibility: "Deterministic: the same input images and fields give the same bytes.",
	}.Rows()
}

func fitVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "image_fit", Description: "How an image meets a width and height that have another aspect ratio.",
		Values: []tasks.VocabValue{
			{
				Value: "contain",
				Label: "Contain",
				Description: "The whole image, scaled to fit inside the box and centred; the rest of the box is background " +
					"(transparent unless background is sent).",
				ChooseWhen: "nothing of the image may be cut",
				Default:    true,
			},
			{
				Value:       "cover",
				Label:       "Cover",
				Description: "The image scaled to fill the box, the overflow cut equally from both sides.",
				ChooseWhen:  "the box must be filled edge to edge",
			},
			{
				Value:       "fill",
				Label:       "Fill",
				Description: "The image stretched to the box; its proportions change.",
				ChooseWhen:  "the aspect ratios are already (almost) equal",
			},
		},
		Default: new("contain"),
	}
}

func formatVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "image_format", Description: "The file format of an output image.",
		Values: []tasks.VocabValue{
			{Value: "png", Label: "PNG", Description: "Lossless, keeps transparency.", Default: true},
			{
				Value:       "jpeg",
				Label:       "JPEG",
				Description: "Smaller files for photos; no transparency (laid on white); quality sets the size.",
				ChooseWhen:  "the image is a photo for the web or a shop",
			},
		},
		Default: new("png"),
	}
}

// aspectRatios are the values of the aspect_ratio vocabulary with their
// width and height terms.
var aspectRatios = []struct {
	value, label, use string
	w, h              int
}{
	{"1:1", "Square", "Marketplace listings, social feeds, avatars.", 1, 1},
	{"4:5", "Portrait 4:5", "Instagram portrait posts.", 4, 5},
	{"3:4", "Portrait 3:4", "Product pages and catalogues.", 3, 4},
	{"2:3", "Portrait 2:3", "Prints and Pinterest pins.", 2, 3},
	{"16:9", "Landscape 16:9", "Banners, slides and video thumbnails.", 16, 9},
	{"9:16", "Vertical 9:16", "Stories, Reels and TikTok.", 9, 16},
}

func aspectVocab() tasks.Vocabulary {
	var values []tasks.VocabValue
	for i, a := range aspectRatios {
		values = append(values, tasks.VocabValue{Value: a.value, Label: a.label, Description: a.use, Default: i == 0})
	}
	return tasks.Vocabulary{
		Name:        "aspect_ratio",
		Description: "The width to height ratio of a crop.",
		Values:      values,
		Default:     new("1:1"),
	}
}

func anchorVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "crop_anchor", Description: "Where a crop is placed in the image.",
		Values: []tasks.VocabValue{
			{
				Value: "attention",
				Label: "Attention",
				Description: "Content-aware: the crop centred on the main subject — the solid region whose colour stands " +
					"out most from the frame's border — wherever it is.",
				ChooseWhen: "the subject is not in the middle",
				Default:    true,
			},
			{
				Value:       "centre",
				Label:       "Centre",
				Description: "The middle of the image.",
				ChooseWhen:  "the subject is centred or the crops must line up",
			},
		},
		Default: new("attention"),
	}
}
