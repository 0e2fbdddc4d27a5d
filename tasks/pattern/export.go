package pattern

import (
	"context"
	"slices"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// What other families build on: the pattern_kind vocabulary (with the words
// that name each kind) and the renderer of pattern.generate.

// KindVocab is the pattern_kind vocabulary this family registers.
func KindVocab() tasks.Vocabulary { return kindVocab() }

// Draw renders tile i of a pattern.generate input (colors, kind,
// resolution, seed, repeats, stripe_angle, dot_size, amplitude, use_case;
// absent fields take pattern.generate's defaults) exactly as a
// pattern.generate job does, with its data.
func Draw(ctx context.Context, in map[string]any, i int) (tasks.Output, error) {
	v, err := generateTask().Input(in)
	if err != nil {
		return tasks.Output{}, err
	}
	return runner{}.Step(ctx, tasks.Arg[generateInput](v), i)
}

// MaxColours is the most colours kind draws: 3 for the woven checks
// (ground, vertical and horizontal bands), 6 for the others.
func MaxColours(kind string) int {
	if slices.Contains(wovenKinds, kind) {
		return 3
	}
	return 6
}

// generateTask is pattern.generate's definition, for its schema defaults.
var generateTask = sync.OnceValue(generate)
