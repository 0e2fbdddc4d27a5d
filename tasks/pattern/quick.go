package pattern

import (
	"strconv"

	"github.com/taskplatform/taskplatform/tasks"
)

// Quick is true for tiles of at most tasks.QuickBudgetPixels in all: a
// 512 px tile draws and encodes in about 3 ms.
func (runner) Quick(in *generateInput) bool {
	size, err := strconv.Atoi(in.Resolution)
	if err != nil {
		return false
	}
	return int64(in.Count)*int64(size*size) <= tasks.QuickBudgetPixels
}

// Quick is pattern.generate's: the same tiles.
func (stripesRunner) Quick(in *stripesInput) bool { return runner{}.Quick(in.generate()) }
