package records

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// registry holds the records family alone.
func registry(t testing.TB) *tasks.Registry {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(Family()))
	return r
}

func mustLookup(t testing.TB, name string) *tasks.Definition {
	d, err := registry(t).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, registry(t))
}
