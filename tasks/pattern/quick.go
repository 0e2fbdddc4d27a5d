package pattern

import (
	"slices"
	"strconv"

	"github.com/taskplatform/taskplatform/tasks"
)

// sampledKinds are the kinds whose anti-aliased rows are each drawn
// sample by sample (no two fine rows alike to copy): a 512 px tile of
// them takes about 20 ms of one core, eight times a stripes tile's
// 2.5 ms, so they count eight times against the quick budget.
var sampledKinds = []string{"dots", "chevron", "waves", "diamonds", "houndstooth", "plaid"}

// Quick is true for tiles of at most tasks.QuickBudgetPixels in all,
// counted eight times for the sampled kinds: eight 512 px stripes or
// gingham tiles, or one 512 px dots tile.
func (runner) Quick(in *generateInput) bool {
	size, err := strconv.Atoi(in.Resolution)
	if err != nil {
		return false
	}
	cost := int64(in.Count) * int64(size*size)
	if slices.Contains(sampledKinds, in.Kind) {
		cost *= 8
	}
	return cost <= tasks.QuickBudgetPixels
}

// Quick is pattern.generate's: the same tiles.
func (stripesRunner) Quick(in *stripesInput) bool { return runner{}.Quick(in.generate()) }
