package pattern

import (
	"context"
	"image/color"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// runner draws tiles; kind, when set, overrides the input's kind.
type runner struct{ kind string }

// Plan asks for count tiles.
func (r runner) Plan(in map[string]any) tasks.Plan {
	return tasks.Plan{Steps: int(tasks.Integer(in, "count", 1)), Phase: "drawing tiles"}
}

// Step draws tile i.
func (r runner) Step(ctx context.Context, in map[string]any, i int) (tasks.Output, error) {
	s := newSpec(in, i, r.kind)
	img, err := s.render(ctx)
	if err != nil {
		return tasks.Output{}, err
	}
	data, err := encodePNG(img)
	if err != nil {
		return tasks.Output{}, err
	}
	colors := tasks.Strings(in, "colors")
	for j, c := range colors {
		colors[j] = strings.ToUpper(c)
	}
	return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: map[string]any{
		"kind": s.kind, "index": i, "seed": int64(s.seed), "colors": colors,
		"transparent_ground": len(colors) == 1, "width": s.size, "height": s.size,
		"resolution": strconv.Itoa(s.size), "repeats": s.repeats,
		"use_case": tasks.String(in, "use_case", "general"), "seamless": true,
	}}, nil
}

// newSpec derives tile i of a validated input; name, when set, overrides
// the input's kind.
func newSpec(in map[string]any, i int, name string) *spec {
	if name == "" {
		name = tasks.String(in, "kind", "stripes")
	}
	pk, ok := kindByValue(name)
	if !ok {
		pk = kinds[0]
	}
	var pal []color.Color
	for _, c := range tasks.Strings(in, "colors") {
		pal = append(pal, tasks.ParseColour(c))
	}
	switch len(pal) {
	case 0:
		pal = []color.Color{color.RGBA{}, color.RGBA{A: 0xff}}
	case 1:
		pal = []color.Color{color.RGBA{}, pal[0]}
	}
	size, err := strconv.Atoi(tasks.String(in, "resolution", "1024"))
	if err != nil || size < 16 {
		size = 1024
	}
	seed := uint64(tasks.Integer(in, "seed", 0)) + uint64(i)
	s := &spec{
		kind: pk.value, size: size, palette: pal, seed: seed,
		angle: int(tasks.Integer(in, "stripe_angle", 0)), dotSize: tasks.Number(in, "dot_size", 0.5), amp: tasks.Number(in, "amplitude", 0.5),
		sx: int(hash(seed, 11) % uint64(size)), sy: int(hash(seed, 13) % uint64(size)),
	}
	k := len(pal)
	total := 0
	for b := range k {
		total += 1 + int(hash(seed, 20+b)%3)
		s.bands = append(s.bands, total)
	}
	var half []int
	for b := range k {
		for range 2 * (1 + int(hash(seed, 30+b)%4)) {
			half = append(half, b)
		}
	}
	s.sett = append(append([]int(nil), half...), reversed(half)...)
	n := int(tasks.Integer(in, "repeats", int64(useCaseRepeats(tasks.String(in, "use_case", "general")))))
	maxN := size / 16
	if pk.value == "plaid" {
		maxN = size / (3 * len(s.sett))
	}
	c := 1
	if pk.cycle != nil {
		c = max(1, pk.cycle(k))
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

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, v := range a {
		out[len(a)-1-i] = v
	}
	return out
}
