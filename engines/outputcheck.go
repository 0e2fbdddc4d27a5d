package engines

import (
	"fmt"
	"image"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// checkOutput holds file k of prediction id, output i of input, to what an
// upload is held to before it is stored or charged: its size to the
// engine's max_bytes (when it was read), its type read from its bytes and
// held to the task's media types, an image decoded in full within the
// pixel budget (imagefile.Reduce: a file whose header reads but whose
// pixels do not is refused), and its data (the binding's meta) true to
// it: a width, height or resolution the data states must be the image's.
// source are the facts of the caller's file handed to the model.
func (r *Runner) checkOutput(input map[string]any, i, k int, data []byte, source map[string]any,
	id string) (tasks.Output, error) {
	facts := maps.Clone(source)
	facts["file"] = k
	mt := http.DetectContentType(data)
	ext, known := extensions[mt]
	if !known || !slices.Contains(r.allowed, mt) {
		return tasks.Output{}, &tasks.StepError{Code: string(apierr.ProcessingFailed),
			Message: "the model answered a file of a type this task does not deliver",
			Err:     fmt.Errorf("engine %s: prediction %s file %d answered %s", r.engine.Name(), id, k, mt)}
	}
	var size image.Point
	if imageType(mt) {
		facts["format"] = strings.TrimPrefix(mt, "image/")
		var err error
		size, err = imagefile.Reduce(data, func(img image.Image) image.Point { return img.Bounds().Size() })
		facts["width"], facts["height"] = size.X, size.Y
		if sw, ok := facts["source_width"].(int); ok && sw > 0 && size.X%sw == 0 {
			facts["scale"] = size.X / sw // a whole enlargement: "$output.scale"
		}
		if err != nil {
			return tasks.Output{}, &tasks.StepError{Code: string(apierr.ProcessingFailed),
				Message: "the model answered an image the service cannot read",
				Err:     fmt.Errorf("engine %s: prediction %s file %d (%d bytes): %w", r.engine.Name(), id, k, len(data), err)}
		}
	}
	meta := r.meta(input, i, facts)
	if said, wrong := statedSize(meta, size); imageType(mt) && wrong {
		return tasks.Output{}, &tasks.StepError{Code: string(apierr.ProcessingFailed),
			Message: fmt.Sprintf("the model answered a %d × %d image where this output is %s", size.X, size.Y, said),
			Err: fmt.Errorf("engine %s: prediction %s file %d is %d × %d, its data says %s: the model does not "+
				"make what the route or task promises", r.engine.Name(), id, k, size.X, size.Y, said)}
	}
	return tasks.Output{Data: data, MediaType: mt, Ext: ext, Meta: meta, Engine: r.engine.Name()}, nil
}

// statedSize says whether an output's data states a pixel size other than
// the image's (size), and words the size it states: its resolution (the
// side of a square tile, "512"), its width, its height, each held to the
// image on its own.
func statedSize(meta map[string]any, size image.Point) (said string, wrong bool) {
	if side, ok := whole(meta["resolution"]); ok && (side != size.X || side != size.Y) {
		return fmt.Sprintf("%d × %d", side, side), true
	}
	w, hasW := whole(meta["width"])
	h, hasH := whole(meta["height"])
	if !hasW {
		w = size.X
	}
	if !hasH {
		h = size.Y
	}
	return fmt.Sprintf("%d × %d", w, h), w != size.X || h != size.Y
}

// whole reads a number or a string of digits as a whole number.
func whole(v any) (int, bool) {
	if s, ok := v.(string); ok {
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	n, ok := number(v)
	return int(n), ok && n == float64(int(n))
}
