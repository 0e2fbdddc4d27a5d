package video

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// gifFPS is the frame rate of GIF loops (a delay of 5 hundredths).
const gifFPS = 20

func patternLoop(o Options) *tasks.Definition {
	refuse := tasks.Refusal(func(in *loopInput, _ map[string]tasks.ImageSize) *apierr.Error {
		return refuseFormat(o, in.Format, in.Size, loopFrames(in), "seconds")
	})
	return &tasks.Definition{
		Name: "video.pattern_loop", Title: "Make a seamless pattern loop",
		Description: "Scrolls a seamless pattern tile across the frame in a loop whose last frame leads into its first " +
			"without a jump, as GIF or MP4.",
		Category: tasks.CategoryVideo, Unit: "video", Uses: []string{"seamless_tile"}, Produces: []string{"seamless_loop"},
		InputSchema: tasks.MustJSON(tasks.DerivedSchema[loopInput](
			"video.pattern_loop input",
			"A seamless tile and how to move it: one looping video.",
			loopInput{}.fieldSchemas(o),
			nil,
		)),
		OutputSchema: tasks.MustJSON(obj{
			"$schema": tasks.SchemaDialect, "title": "Pattern loop data", "type": "object", "description": "The data of the " +
				"loop.",
			"properties": obj{
				"format": obj{
					"type":             "string",
					tasks.VocabKeyword: "video_format",
					"description":      "The file format.",
				},
				"size": obj{
					"type":             "string",
					tasks.VocabKeyword: "video_size",
					"description":      "The frame size.",
				},
				"width":  obj{"type": "integer", "minimum": 1, "description": "The frame width in pixels."},
				"height": obj{"type": "integer", "minimum": 1, "description": "The frame height in pixels."},
				"frames": obj{"type": "integer", "minimum": 1, "description": "The number of frames of one loop."},
				"fps": obj{"type": "integer", "minimum": 1, "description": "Frames per second: 30 for MP4; 20 for GIF, " +
					"10 where 20 would pass the GIF size cap (see limitations)."},
				"duration_ms": obj{
					"type":        "integer",
					"minimum":     1,
					"description": "The length of one loop, in milliseconds.",
				},
				"direction": obj{
					"type":             "string",
					tasks.VocabKeyword: "scroll_direction",
					"description":      "Which way the pattern moves.",
				},
				"step_px": obj{
					"type":        "integer",
					"minimum":     1,
					"description": "How far the pattern moves per frame, in pixels (along each axis for diagonal).",
				},
				"tile_px": obj{
					"type":        "integer",
					"minimum":     1,
					"description": "The tile's length along the motion in the video, in pixels: frames × step_px.",
				},
				"seamless": obj{"type": "boolean", "description": "Whether the tile as sent repeats without a seam: the " +
					"step across its opposite edges is under 10 of 255, or under twice the strongest step between " +
					"neighbouring columns (rows) inside it."},
				"mirrored": obj{"type": "boolean", "description": "Whether the tile was mirrored into a block of four " +
					"(mirror true)."},
			},
			"required": []string{
				"format",
				"size",
				"width",
				"height",
				"frames",
				"fps",
				"duration_ms",
				"direction",
				"step_px",
				"tile_px",
				"seamless",
				"mirrored",
			},
		}),
		Runner:   tasks.Typed[loopInput](loopRunner{o}),
		Pricing:  tasks.Pricing{CreditType: "service_credits", PerOutput: 5},
		RefSides: map[string]tasks.ImageSides{"tile": inputSides},
		Refuse:   refuse,
		Docs:     loopDocs(o),
		Examples: []tasks.Example{{
			Name: "scrolling_waves", Title: "A wave tile scrolling left",
			Description: "A two-colour wave tile moving left across a 480 × 480 square, one tile length every 2 seconds, as " +
				"a looping GIF.",
			Input: json.RawMessage(
				`{"tile":"file:example_waves","direction":"left","seconds":2,"repeats":2,"size":"480x480","format":"gif"}`,
			),
			Files: []tasks.ExampleFile{wavesFile},
		}, {
			Name: "not_seamless", Title: "A tile that is not seamless",
			Description: "A cream-to-teal ramp whose edges do not meet: the loop warns tile_not_seamless and its data says " +
				"seamless false; send mirror true to mirror it into a seamless block.",
			Input: json.RawMessage(`{"tile":"file:example_ramp","direction":"left","seconds":1,"size":"480x480"}`),
			Files: []tasks.ExampleFile{stripesFile},
		}, {
			Name: "mirrored", Title: "The same tile, mirrored",
			Description: "The ramp mirrored into a block of four, which repeats without a seam.",
			Input: json.RawMessage(
				`{"tile":"file:example_ramp","direction":"left","seconds":1,"size":"480x480","mirror":true}`,
			),
			Files: []tasks.ExampleFile{stripesFile},
		}, {
			Name: "fine_detail_gif", Title: "A tile of fine detail as GIF",
			Description: "A tile of fine detail in many colours: at full quality its GIF would pass the size cap, so it is " +
				"made at 10 frames per second and 32 colours, warned gif_reduced (as MP4 it keeps full quality).",
			Input: json.RawMessage(
				`{"tile":"file:example_detail","direction":"left","seconds":1,"size":"480x480","format":"gif"}`,
			),
			Files: []tasks.ExampleFile{detailFile},
		}},
	}
}

// loopFrames is the number of frames of one loop.
func loopFrames(in *loopInput) int {
	fps := gifFPS
	if in.Format == "mp4" {
		fps = mp4FPS
	}
	return in.Seconds * fps
}

// motion is a loop's geometry: frames, the step per frame in pixels and
// the tile's size in the video, its length along the motion being exactly
// frames × step so the loop closes.
type motion struct {
	frames, step int
	tileW, tileH int
	dx, dy       int // the view's move per frame, in steps: the pattern moves the other way
}

func loopMotion(in *loopInput, tile image.Rectangle, fps int) motion {
	W, H := size(in.Size)
	n := in.Seconds * fps
	want := float64(min(W, H)) / float64(in.Repeats)
	m := motion{frames: n, step: max(1, int(math.Round(want/float64(n))))}
	length := m.step * n
	aspect := float64(tile.Dy()) / float64(tile.Dx())
	switch in.Direction {
	case "left", "right":
		m.tileW, m.tileH = length, max(1, int(math.Round(float64(length)*aspect)))
	case "up", "down":
		m.tileW, m.tileH = max(1, int(math.Round(float64(length)/aspect))), length
	default: // diagonal: both periods are the length
		m.tileW, m.tileH = length, length
	}
	d := directions[in.Direction]
	m.dx, m.dy = d[0], d[1]
	return m
}

// directions are the view's move per frame, in steps, by direction: the
// view moves right for a pattern moving left.
var directions = map[string][2]int{"left": {1, 0}, "right": {-1, 0}, "up": {0, 1}, "down": {0, -1}, "diagonal": {1, 1}}

// offset is the view's position in the tile at frame k.
func (m motion) offset(k int) (int, int) {
	mod := func(v, n int) int { return ((v % n) + n) % n }
	return mod(k*m.step*m.dx, m.tileW), mod(k*m.step*m.dy, m.tileH)
}

// loopRunner makes one looping video.
type loopRunner struct{ o Options }

// Plan asks for one video.
func (loopRunner) Plan(*loopInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "making the loop"}
}

// Step scales the tile so one tile length is frames × step pixels, then
// renders each frame as the window of the tiled plane at its offset.
func (r loopRunner) Step(ctx context.Context, in *loopInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("video.pattern_loop: no output %d", i)
	}
	ref := tasks.Ref{Field: "tile", Ref: in.Tile}
	src, err := load(ctx, ref)
	if err != nil {
		return tasks.Output{}, err
	}
	seams := checkSeams(src)
	var warnings []contract.Warning
	switch {
	case in.Mirror:
		src = mirrored(src)
	case !seams.seamless():
		warnings = append(warnings, seams.warning())
	}
	W, H := size(in.Size)
	format := in.Format
	var enc encoded
	var m motion
	fps := mp4FPS
	if format == "mp4" {
		m, err = fitMotion(in, src.Bounds(), mp4FPS, ref)
		if err != nil {
			return tasks.Output{}, err
		}
		tile := loopTile(src, m)
		data, err := encodeMP4(ctx, r.o.FFmpeg, W, H, frameSource{count: m.frames, frame: func(k int) *image.NRGBA {
			return window(tile, m, k, W, H)
		}})
		if err != nil {
			return tasks.Output{}, err
		}
		enc = encoded{data, "video/mp4", "mp4"}
	} else {
		g, err := loopGIF(ctx, in, src, ref)
		if err != nil {
			return tasks.Output{}, err
		}
		enc, m, fps = encoded{g.data, "image/gif", "gif"}, g.m, g.level.fps
		if g.warning != nil {
			warnings = append(warnings, *g.warning)
		}
	}
	return tasks.Output{Data: enc.data, MediaType: enc.mediaType, Ext: enc.ext, Meta: map[string]any{
		"format": format, "size": in.Size, "width": W, "height": H,
		"frames": m.frames, "fps": fps, "duration_ms": m.frames * 1000 / fps, "direction": in.Direction,
		"step_px": m.step, "tile_px": m.step * m.frames, "seamless": seams.seamless(), "mirrored": in.Mirror,
	}, Warnings: warnings}, nil
}

// fitMotion is loopMotion at fps, refused for a tile whose aspect ratio
// would make it too long to scroll.
func fitMotion(in *loopInput, tile image.Rectangle, fps int, ref tasks.Ref) (motion, error) {
	m := loopMotion(in, tile, fps)
	if m.tileW > 4*maxSide || m.tileH > 4*maxSide {
		return m, failf(ref, "the tile's aspect ratio is too extreme to scroll (%d × %d px in the video)", m.tileW, m.tileH)
	}
	return m, nil
}

// loopTile is the tile scaled to the motion's tile size, on white.
func loopTile(src image.Image, m motion) *image.NRGBA {
	tile := imaging.Resize(src, m.tileW, m.tileH, imaging.Lanczos)
	return imaging.Overlay(imaging.New(m.tileW, m.tileH, color.White), tile, image.Point{}, 1)
}

// maxSide is the longest frame side of the size vocabulary.
const maxSide = 1920

// window is frame k: the W × H view of the tiled plane at the frame's offset.
func window(tile *image.NRGBA, m motion, k, W, H int) *image.NRGBA {
	out := image.NewNRGBA(image.Rect(0, 0, W, H))
	ox, oy := m.offset(k)
	for y := range H {
		src := tile.Pix[((oy+y)%m.tileH)*tile.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < W; {
			sx := (ox + x) % m.tileW
			n := min(W-x, m.tileW-sx)
			copy(dst[4*x:4*(x+n)], src[4*sx:4*(sx+n)])
			x += n
		}
	}
	return out
}

// windowPaletted is window on the dithered tile.
func windowPaletted(tile *image.Paletted, m motion, k, W, H int) *image.Paletted {
	out := image.NewPaletted(image.Rect(0, 0, W, H), tile.Palette)
	ox, oy := m.offset(k)
	for y := range H {
		src := tile.Pix[((oy+y)%m.tileH)*tile.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < W; {
			sx := (ox + x) % m.tileW
			n := min(W-x, m.tileW-sx)
			copy(dst[x:x+n], src[sx:sx+n])
			x += n
		}
	}
	return out
}

func loopDocs(o Options) tasks.Docs {
	return tasks.Docs{
		Lead: "video.pattern_loop scrolls a seamless pattern tile across the frame — left, right, up, down or diagonally " +
			"— for backgrounds, banners and product pages. The tile is scaled so that it moves exactly one tile length over " +
			"the loop, a whole number of pixels per frame: the frame after the last is the first, so the loop plays on " +
			"repeat without a jump. A GIF uses one palette for the whole loop and the tile is dithered once, so every frame " +
			"is an exact shift of the one before; it keeps to a size cap, at a lower frame rate and fewer colours where " +
			"it must (warned gif_reduced).",
		BuiltFor: []string{
			"Moving backgrounds from pattern.generate or pattern.repeat tiles.",
			"Showing a print in motion on a product page or in a social post.",
		},
		WhatYouGet: []string{
			"One looping GIF or MP4 per job.",
			"Its data: format, frame size, frames of one loop and their length, direction, the step per frame and the tile's " +
				"size in the video.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One video.",
			CountDependsOn: []string{},
			AbsentWhen:     new("A tile that cannot be fetched or read fails the job with processing_failed."),
		},
		Specs: specs(
			o,
			"One tile, which should be seamless (its edges continue each other); transparent parts show white.",
			"One video per job.",
			"size (default 720x720). MP4 at 30 frames per second, GIF at 20 (10 where 20 would pass the size cap); "+
				"one loop is seconds long (1 to 20). The tile is "+
				"scaled to about the frame's shorter side / repeats, adjusted so one tile length is a whole number of pixels "+
				"per frame. A GIF holds at most 120 megapixels of frames in all; more answers 422 request_refused naming seconds.",
		),
		Limitations: []string{
			"A tile that is not seamless shows its seams as it moves: the job warns tile_not_seamless when, along either " +
				"axis, its opposite edges differ by at least 10 of 255 on average and twice the strongest step between " +
				"neighbouring columns (rows) inside it; mirror true mirrors it into a seamless block of four. A seam no " +
				"stronger than the tile's own sharpest edge (a photo with a hard edge inside) is not flagged.",
			"Diagonal motion scales the tile to a square.",
			"GIF has no motion compression: a scrolling frame changes almost everywhere, so each is stored nearly whole " +
				"(one palette for the loop, each frame after the first only as the rectangle that changed, unchanged " +
				"pixels transparent), in the fewest colours (15, 31, 63, 127 or 255) that hold the tile within 2 of " +
				"255 on average. A GIF loop is kept to 4 bytes per frame pixel and second of loop (8.3 MB for 4 s " +
				"at 720 × 720, 6.2 MB for 3 s): where full quality (20 fps, up to 255 colours, Floyd–Steinberg) would " +
				"pass that, it is made at 10 fps, then at 10 fps with 32 colours in an ordered dither, warned " +
				"gif_reduced, and the warning says when even that stays over. Measured at 720 × 720 (go test -run '^$' " +
				"-bench LoopSizes ./tasks/video), 3 s and 4 s: the flat two-colour wave example 4.1 and 5.5 MB as GIF " +
				"at 20 fps, 0.13 and 0.14 MB as MP4; the ramp mirrored 5.8 and 7.8 MB at 20 fps, 0.04 MB as MP4; a tile " +
				"of fine many-coloured detail 5.2 and 6.9 MB at 10 fps and 32 colours (31 MB at full quality), 0.19 " +
				"and 0.17 MB as MP4. MP4 is the default where this server has ffmpeg; ask for gif only where images " +
				"alone are allowed.",
			"MP4 is lossy: its last and first frames join without a jump, but not bit for bit.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.TileNotSeamless,
			apierr.GIFReduced,
		),
		Related: []tasks.Related{
			{Task: "pattern.generate", Relation: "before"},
			{Task: "pattern.repeat", Relation: "before"},
			{Task: "video.slideshow", Relation: "sibling"},
		},
	}
}
