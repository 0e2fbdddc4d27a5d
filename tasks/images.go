package tasks

import (
	"context"
	"errors"
	"fmt"
	"image"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// The pixel budget every image read goes through. A step reads an image
// reference with LoadImage (at full size) or ReduceImage (one image at a
// time, keeping only what it draws or measures from it); both check the
// header — format, sides, pixels and the decoder's memory
// (imagefile.MaxPixels, imagefile.MaxDecodeBytes) — before a pixel is
// decoded. An image that does not fit is a permanent *StepError naming the
// field: the output is not produced, with the reason, and
// the step is not retried.

// StepMemoryBytes is the memory one step takes at most, reading an input
// at the pixel budget's edge: the decoded image, the task's working copies
// and its output. The largest measured (README, "Memory") is colour.separate
// on a 32-megapixel 16-bit PNG: 571 MB, about 520 MB over the process's own.
const StepMemoryBytes = 600 << 20

// ImageBudget is the pixel budget's words for a task's docs: the megapixels
// and the decoder's memory an input image may take.
const ImageBudget = "at most 40 megapixels, and at most 256 MB to decode " +
	"(a 16-bit PNG up to 33 megapixels, a progressive JPEG about 29)"

// LoadImage fetches image reference r through the step's loader and
// decodes it at full size within the pixel budget and sides, EXIF
// orientation applied.
func LoadImage(ctx context.Context, r Ref, sides ImageSides) (image.Image, error) {
	data, err := LoadRef(ctx, r)
	if err != nil {
		return nil, err
	}
	return DecodeImage(r, data, sides)
}

// DecodeImage decodes the bytes of reference r (fetched with LoadRef) at
// full size within the pixel budget and sides, EXIF orientation applied.
func DecodeImage(r Ref, data []byte, sides ImageSides) (image.Image, error) {
	if err := CheckImage(r, data, sides); err != nil {
		return nil, err
	}
	img, err := imagefile.Decode(data)
	if err != nil {
		return nil, imageError(r, err)
	}
	return img, nil
}

// ReduceImage fetches image reference r and decodes it within the pixel
// budget and sides, handing the full-size image to reduce — which must not
// keep it — and returning what reduce made of it (a thumbnail, a drawing, a
// measurement). Read a task's many images with it one after the other, and
// the step holds one full-size image at a time.
func ReduceImage[T any](ctx context.Context, r Ref, sides ImageSides, reduce func(full image.Image) T) (T, error) {
	var zero T
	data, err := LoadRef(ctx, r)
	if err != nil {
		return zero, err
	}
	if err := CheckImage(r, data, sides); err != nil {
		return zero, err
	}
	out, err := imagefile.Reduce(data, reduce)
	if err != nil {
		return zero, imageError(r, err)
	}
	return out, nil
}

// CheckImageSize is the pixel budget's check of a w × h px image whose
// size is known before its job runs (an upload records it): the public
// reason it cannot be read, or "". Its bit depth and encoding are checked
// when the step reads its header.
func CheckImageSize(w, h int) string {
	if e := imagefile.CheckSize(w, h); e != nil {
		return e.Reason
	}
	return ""
}

// CheckImage checks the header of reference r's bytes: a format the
// service reads, sides within sides and the pixel budget. The failure is a
// permanent *StepError naming r.
func CheckImage(r Ref, data []byte, sides ImageSides) error {
	h, err := imagefile.ReadHeader(data)
	if err != nil {
		return imageError(r, err)
	}
	if reason := sides.Check(h.Width, h.Height); reason != "" {
		return imageFail(r, reason)
	}
	if e := h.Check(); e != nil {
		return imageFail(r, e.Reason)
	}
	return nil
}

// imageError is the step failure of an image that cannot be decoded.
func imageError(r Ref, err error) error {
	var be *imagefile.BudgetError
	switch {
	case errors.As(err, &be):
		return imageFail(r, be.Reason)
	case errors.Is(err, imagefile.ErrUnreadable):
		return imageFail(r, "the file could not be read as "+imagefile.Formats)
	}
	msg := r.Field + ": the image data is damaged and could not be decoded"
	return &StepError{Code: contract.ErrTypeProcessing, Message: msg, Err: err}
}

// imageFail is a permanent step failure naming the image's field (the
// caller knows what they sent there).
func imageFail(r Ref, reason string) error {
	return &StepError{Code: contract.ErrTypeProcessing, Message: fmt.Sprintf("%s: %s", r.Field, reason)}
}
