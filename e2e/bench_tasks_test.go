package e2e_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// taskRow is one task at one resolution: the task's own work for one
// output (Runner.Step: decode inputs, draw, encode) beside a bare decode of
// the images its example sends and a png.Encoder encoding the same pixels
// with the same compression level.
type taskRow struct {
	task, resolution string
	stepMS           float64
	decodeMS         float64 // decoding the images the example sends
	encodeMS         float64 // 0 when the output is not a PNG
	level            string  // the compression level that reproduces the task's image data
	kb               float64
	defaultMS        float64 // encode at png.DefaultCompression, for comparison
	defaultKB        float64
	err              error // the task did not run here
}

// pngLevels are the levels tried to find the task's own: the one whose
// encode of the decoded pixels gives back the task's exact critical chunks
// (its image data; a task may add ancillary chunks, such as pHYs).
var pngLevels = []struct {
	name  string
	level png.CompressionLevel
}{{"BestSpeed", png.BestSpeed}, {"Default", png.DefaultCompression}, {"BestCompression", png.BestCompression}, {"None",
	png.NoCompression}}

// benchTasks times output 0 of every runnable task's first example at each
// resolution its schema offers.
func benchTasks(b *testing.B) []taskRow {
	b.Helper()
	var rows []taskRow
	for _, def := range all.Registry().Runnable() {
		if len(def.Examples) == 0 {
			continue
		}
		var input map[string]any
		require.NoError(b, json.Unmarshal(def.Examples[0].Input, &input))
		files := benchLoader{}
		for _, f := range def.Examples[0].Files {
			files[f.Ref] = f.Data()
		}
		ctx := tasks.WithLoader(context.Background(), files)
		resolutions := schemaEnum(b, def, "resolution")
		if len(resolutions) == 0 || !variantTakes(def, input, "resolution") {
			resolutions = []string{""} // the example as served
		}
		decode := decodeInputs(files)
		for _, res := range resolutions {
			rows = append(rows, benchTask(ctx, def, input, res, decode))
		}
	}
	return rows
}

// benchTask times output 0 of one task at one resolution ("" for none);
// a task that does not run here gets a row saying why.
func benchTask(ctx context.Context, def *tasks.Definition, input map[string]any, res string, decode func()) taskRow {
	row := taskRow{task: def.Name, resolution: or(res, "-"), level: "-"}
	if res != "" {
		input["resolution"] = res
	}
	raw, _ := json.Marshal(input)
	in, err := def.Validate(raw)
	if err != nil {
		row.err = err
		return row
	}
	out, err := def.Runner.Step(ctx, in, 0) // warms up, and gives the bytes to match
	if err != nil {
		row.err = err
		return row
	}
	row.kb = float64(len(out.Data)) / 1024
	encode := func() {}
	if out.MediaType == "image/png" {
		if encode, row.err = row.encodePNG(out.Data); row.err != nil {
			return row
		}
	} else {
		row.level = strings.TrimPrefix(out.MediaType, "image/") + ", not PNG"
	}
	// Step, decode and encode are timed in turns, so a drift of the
	// machine's load (or a collection) falls on all three alike.
	timed := decode
	if timed == nil {
		timed = func() {}
	}
	ms := interleavedMS(func() { _, _ = def.Runner.Step(ctx, in, 0) }, timed, encode)
	row.stepMS = ms[0]
	if decode != nil {
		row.decodeMS = ms[1]
	}
	if out.MediaType == "image/png" {
		row.encodeMS = ms[2]
	}
	return row
}

// variantTakes reports whether the variant an input chooses (its variant
// field, or the default) takes a top-level field: a photoshoot.create
// example with a marketplace preset takes no resolution, so it is timed as
// served.
func variantTakes(def *tasks.Definition, input map[string]any, field string) bool {
	v := def.Variant
	if v == nil || v.Only[field] == nil {
		return true
	}
	val, ok := input[v.Field].(string)
	if !ok {
		val = v.Default
	}
	return slices.Contains(v.Only[field], val)
}

// decodeInputs decodes the images an example sends (image.Decode, every
// format the tasks register); nil for none.
func decodeInputs(files benchLoader) func() {
	var imgs [][]byte
	for _, data := range files {
		if _, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			imgs = append(imgs, data)
		}
	}
	if len(imgs) == 0 {
		return nil
	}
	return func() {
		for _, data := range imgs {
			_, _, _ = image.Decode(bytes.NewReader(data))
		}
	}
}

// encodePNG finds the task's compression level, times the default level
// for comparison and returns the bare encode at the task's level.
func (row *taskRow) encodePNG(data []byte) (func(), error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	encode := func(l png.CompressionLevel) []byte {
		var buf bytes.Buffer
		_ = (&png.Encoder{CompressionLevel: l}).Encode(&buf, img)
		return buf.Bytes()
	}
	level := png.BestSpeed
	row.level = "?"
	for _, l := range pngLevels {
		if bytes.Equal(criticalChunks(encode(l.level)), criticalChunks(data)) {
			level, row.level = l.level, l.name
			break
		}
	}
	var def []byte
	row.defaultMS = medianMS(func() { def = encode(png.DefaultCompression) })
	row.defaultKB = float64(len(def)) / 1024
	return func() { encode(level) }, nil
}

// criticalChunks is a PNG's critical chunks (IHDR, PLTE, IDAT, IEND:
// the type's first letter upper case) as they stand in the file: the image
// and how it was compressed, without the ancillary chunks a task adds
// (pHYs, iCCP) that png.Encoder never writes. nil when data is no PNG.
func criticalChunks(data []byte) []byte {
	const signature = "\x89PNG\r\n\x1a\n"
	if !bytes.HasPrefix(data, []byte(signature)) {
		return nil
	}
	var out []byte
	for rest := data[len(signature):]; len(rest) >= 12; {
		n := int(binary.BigEndian.Uint32(rest))
		if n > len(rest)-12 {
			return nil
		}
		if chunk := rest[:12+n]; chunk[4] >= 'A' && chunk[4] <= 'Z' {
			out = append(out, chunk...)
		}
		rest = rest[12+n:]
	}
	return out
}

// medianMS runs fn once to warm up, then at least three times and for
// about 150 ms, and returns the median CPU time of this process per run
// in milliseconds (getrusage: user + system, every thread, so the
// collector's work counts and other processes' load does not).
func medianMS(fn func()) float64 {
	fn()
	var ds []float64
	start := time.Now()
	for len(ds) < 3 || (time.Since(start) < 150*time.Millisecond && len(ds) < 10) {
		t0 := processCPU()
		fn()
		ds = append(ds, float64((processCPU()-t0).Microseconds())/1000)
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// interleavedMS times fns in turns — one run of each per round, at least
// five rounds and for about 400 ms — and returns the median CPU time of
// this process per run of each, in milliseconds (as medianMS).
func interleavedMS(fns ...func()) []float64 {
	runs := make([][]float64, len(fns))
	start := time.Now()
	for round := 0; round < 5 || (time.Since(start) < 400*time.Millisecond && round < 25); round++ {
		for i, fn := range fns {
			t0 := processCPU()
			fn()
			runs[i] = append(runs[i], float64((processCPU()-t0).Microseconds())/1000)
		}
	}
	out := make([]float64, len(fns))
	for i, ds := range runs {
		slices.Sort(ds)
		out[i] = ds[len(ds)/2]
	}
	return out
}

// processCPU is the user + system time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// schemaEnum is the enum of a top-level input property, if any.
func schemaEnum(b *testing.B, def *tasks.Definition, prop string) []string {
	var s struct {
		Properties map[string]struct {
			Enum []any `json:"enum"`
		} `json:"properties"`
	}
	require.NoError(b, json.Unmarshal(def.InputSchema, &s))
	var out []string
	for _, v := range s.Properties[prop].Enum {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// benchLoader serves the files an example sends.
type benchLoader map[string][]byte

func (l benchLoader) Load(_ context.Context, ref string) ([]byte, error) {
	if data, ok := l[ref]; ok {
		return data, nil
	}
	return nil, &tasks.StepError{Code: "processing_failed", Message: "no file " + ref}
}

func printTasksTable(out io.Writer, rows []taskRow) {
	if len(rows) == 0 {
		fmt.Fprintln(out, "\nTasks: skipped (TP_BENCH_TASKS=0)")
		return
	}
	fmt.Fprintln(
		out,
		"\nTasks: CPU ms of one output (Runner.Step, first example) beside a bare decode of its input images and "+
			"png.Encoder of the same pixels at the task's level:",
	)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(
		tw,
		"task\tresolution\tms/output\tdecode ms\tencode ms\toverhead\tlevel\tKB\tencode ms, default level\tKB, default "+
			"level\t",
	)
	for _, r := range rows {
		switch {
		case r.err != nil:
			fmt.Fprintf(tw, "%s\t%s\tdid not run: %.60s\t\t\t\t\t\t\t\t\n", r.task, r.resolution, r.err.Error())
		case r.encodeMS == 0:
			fmt.Fprintf(
				tw,
				"%s\t%s\t%.2f\t%s\t-\t-\t%s\t%.1f\t-\t-\t\n",
				r.task,
				r.resolution,
				r.stepMS,
				msOrDash(r.decodeMS),
				r.level,
				r.kb,
			)
		default:
			fmt.Fprintf(
				tw,
				"%s\t%s\t%.2f\t%s\t%.2f\t%s\t%s\t%.1f\t%.2f\t%.1f\t\n",
				r.task,
				r.resolution,
				r.stepMS,
				msOrDash(r.decodeMS),
				r.encodeMS,
				ratio(r.stepMS, r.decodeMS+r.encodeMS),
				r.level,
				r.kb,
				r.defaultMS,
				r.defaultKB,
			)
		}
	}
	_ = tw.Flush()
	fmt.Fprintln(
		out,
		"overhead = ms/output ÷ (decode ms + encode ms): the task's own work beyond decoding its inputs and encoding its "+
			"pixels (target ≤ 1.5)",
	)
}

func msOrDash(ms float64) string {
	if ms == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", ms)
}
