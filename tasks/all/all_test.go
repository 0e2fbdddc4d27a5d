package all_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// TestRegistryHoldsEveryFamily checks every task of every family is
// registered once, served in catalogue order.
func TestRegistryHoldsEveryFamily(t *testing.T) {
	r := all.Registry()
	n := 0
	for _, f := range all.Families() {
		for _, d := range f.Tasks {
			got := false
			for _, x := range r.All() {
				got = got || x.Name == d.Name
			}
			require.True(t, got, d.Name)
			n++
		}
	}
	require.Len(t, r.All(), n)
	require.Error(t, all.Register(r), "a family registers once")
	place := func(d *tasks.Definition) int {
		switch {
		case d.Removed:
			return 100
		case d.Status != "":
			return 50
		}
		for i, c := range tasks.Categories() {
			if c == d.Category {
				return i
			}
		}
		return -1
	}
	list := r.All()
	for i := 1; i < len(list); i++ {
		require.LessOrEqual(t, place(list[i-1]), place(list[i]), "%s before %s", list[i-1].Name, list[i].Name)
	}
	fresh := tasks.NewRegistry()
	require.NoError(t, all.Register(fresh))
	require.Len(t, fresh.All(), n, "a fresh registry holds the same catalogue")
}

// TestEveryTaskKeepsTheCorePromises runs the core's checks on every task,
// so a family added to all.Families is checked without another line.
func TestEveryTaskKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, all.Registry())
}
