package image

import (
	"context"
	"image"

	"github.com/taskplatform/taskplatform/tasks"
)

// What other families build on: the cut-out of image.remove_background,
// the family's loading of an image reference and the aspect_ratio
// vocabulary.

// CutOut makes the plain background of img transparent exactly as
// image.remove_background does (tolerance in ΔE, feather in pixels) and
// returns the cut-out with the background colour found (#RRGGBB). It fails
// with the public reason when the background is not plain.
func CutOut(ctx context.Context, img image.Image, tolerance float64, feather int) (*image.NRGBA, string, error) {
	res, err := cutOut(ctx, img, tolerance, feather)
	if err != nil {
		return nil, "", err
	}
	return res.img, res.background.Hex(), nil
}

// Load fetches and decodes an image reference as the family's tasks do:
// sides and area checked, EXIF orientation applied. A reference that cannot
// be used is a *tasks.StepError naming r's field.
func Load(ctx context.Context, r tasks.Ref) (image.Image, error) {
	src, err := load(ctx, r)
	if err != nil {
		return nil, err
	}
	return src.img, nil
}

// AspectVocab is the aspect_ratio vocabulary (the image family registers it).
func AspectVocab() tasks.Vocabulary { return aspectVocab() }

// AspectTerms are the width and height terms of an aspect_ratio value
// (4 and 5 for "4:5"); 1 and 1 for an unknown value.
func AspectTerms(value string) (w, h int) {
	for _, a := range aspectRatios {
		if a.value == value {
			return a.w, a.h
		}
	}
	return 1, 1
}
