package pattern

import (
	"strconv"

	"github.com/taskplatform/taskplatform/tasks"
)

// Quick is true for tiles of at most tasks.QuickBudgetPixels in all: a
// 512 px tile draws and encodes in about 3 ms.
func (r runner) Quick(in map[string]any) bool {
	size, err := strconv.Atoi(tasks.String(in, "resolution", "1024"))
	if err != nil {
		return false
	}
	return tasks.Integer(in, "count", 1)*int64(size*size) <= tasks.QuickBudgetPixels
}
