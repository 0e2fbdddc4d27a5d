package pattern

import (
	"context"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// generate is the pattern.generate input that draws the same tiles: kind
// stripes, and the use_case vocabulary's default, which pattern.stripes
// has no field for.
func (in *stripesInput) generate() *generateInput {
	return &generateInput{
		Kind: "stripes", Colors: in.Colors, Count: in.Count, Resolution: in.Resolution, Seed: in.Seed,
		Repeats: in.Repeats, UseCase: tasks.UseCases()[0].Value, StripeAngle: in.StripeAngle,
	}
}

// parsedSett is the input's sett, nil when none was sent or it does not
// parse (refused at submit).
func (in *generateInput) parsedSett() *sett {
	if in.Sett == nil {
		return nil
	}
	st, e := parseSett(*in.Sett)
	if e != nil {
		return nil
	}
	return st
}

// runner draws pattern.generate's tiles.
type runner struct{}

// Plan asks for count tiles.
func (runner) Plan(in *generateInput) tasks.Plan {
	return tasks.Plan{Steps: in.Count, Phase: "drawing tiles"}
}

// Step draws tile i.
func (runner) Step(ctx context.Context, in *generateInput, i int) (tasks.Output, error) {
	s := newSpec(in, i)
	f := formatOf(in.Format)
	data, err := s.file(ctx, f.value)
	if err != nil {
		return tasks.Output{}, err
	}
	colors := slices.Clone(in.Colors)
	for j, c := range colors {
		colors[j] = strings.ToUpper(c)
	}
	meta := map[string]any{
		"kind": s.kind, "index": i, "seed": int64(s.seed), "colors": colors,
		"transparent_ground": len(colors) == 1, "width": s.size, "height": s.size,
		"resolution": strconv.Itoa(s.size), "repeats": s.repeats,
		"use_case": in.UseCase, "format": f.value, "seamless": true,
	}
	if st := in.parsedSett(); st != nil && s.kind == "plaid" {
		named := map[string]any{}
		for j, c := range st.codes {
			named[c] = colors[j]
		}
		meta["sett"], meta["sett_threads"], meta["sett_colors"] = st.String(), len(s.sett), named
	}
	return tasks.Output{Data: data, MediaType: f.mediaType, Ext: f.ext, Meta: meta}, nil
}

// stripesRunner draws pattern.stripes' tiles with pattern.generate's
// renderer, as kind stripes.
type stripesRunner struct{}

// Plan asks for count tiles.
func (stripesRunner) Plan(in *stripesInput) tasks.Plan { return runner{}.Plan(in.generate()) }

// Step draws tile i.
func (stripesRunner) Step(ctx context.Context, in *stripesInput, i int) (tasks.Output, error) {
	return runner{}.Step(ctx, in.generate(), i)
}

// newSpec derives tile i of a validated input.
func newSpec(in *generateInput, i int) *spec {
	pk, ok := kindByValue(in.Kind)
	if !ok {
		pk = kinds[0]
	}
	var pal []color.Color
	for _, c := range in.Colors {
		pal = append(pal, tasks.ParseColour(c))
	}
	switch len(pal) {
	case 0:
		pal = []color.Color{color.RGBA{}, color.RGBA{A: 0xff}}
	case 1:
		pal = []color.Color{color.RGBA{}, pal[0]}
	}
	size, err := strconv.Atoi(in.Resolution)
	if err != nil || size < 16 {
		size = 1024
	}
	seed := uint64(in.Seed) + uint64(i)
	s := &spec{
		kind: pk.value, size: size, palette: pal, seed: seed,
		angle: in.StripeAngle, dotSize: in.DotSize, amp: in.Amplitude,
		sx: int(hash(seed, 11) % uint64(size)), sy: int(hash(seed, 13) % uint64(size)),
	}
	k := len(pal)
	total := 0
	for b := range k {
		total += 1 + int(hash(seed, 20+b)%3)
		s.bands, s.bandCol = append(s.bands, total), append(s.bandCol, uint8(b))
	}
	if len(in.StripeWidths) > 0 {
		s.bands, s.bandCol, total = nil, nil, 0
		for b, w := range in.StripeWidths {
			total += w
			s.bands, s.bandCol = append(s.bands, total), append(s.bandCol, uint8(b%k))
		}
	}
	switch pk.value {
	case "gingham", "buffalo_check":
		s.weave(pal, false, 0.5)
	case "windowpane":
		s.weave(pal, true, in.LineWidth)
	case "dots":
		s.halfDrop = in.DotLayout != "grid"
	}
	var half []int
	for b := range k {
		for range 2 * (1 + int(hash(seed, 30+b)%4)) {
			half = append(half, b)
		}
	}
	s.sett = append(append([]int(nil), half...), reversed(half)...)
	if st := in.parsedSett(); st != nil {
		s.sett = st.threads()
	}
	n := useCaseRepeats(in.UseCase)
	if pk.value == "buffalo_check" {
		n = max(1, n/2)
	}
	if in.Repeats != nil {
		n = *in.Repeats
	}
	maxN := size / 16
	if pk.value == "plaid" {
		maxN = size / (3 * len(s.sett))
	}
	c := 1
	if pk.cycle != nil {
		c = max(1, pk.cycle(k))
	}
	if s.halfDrop {
		c = lcm(c, 2)
	}
	n = (max(1, n) + c - 1) / c * c
	if n > maxN {
		n = max(c, maxN/c*c)
	}
	s.repeats = n
	return s
}

// useCaseRepeats is the repeat count of a use_case value.
func useCaseRepeats(v string) int {
	cases := tasks.UseCases()
	for _, u := range cases {
		if u.Value == v {
			return u.Repeats
		}
	}
	return cases[0].Repeats
}

func lcm(a, b int) int {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, v := range a {
		out[len(a)-1-i] = v
	}
	return out
}
