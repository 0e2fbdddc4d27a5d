package photoshoot

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// TestFamilyKeepsTheTaskPromises runs the checks every task keeps: schemas,
// examples, bounds, error lists, docs.
func TestFamilyKeepsTheTaskPromises(t *testing.T) {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(image.Family())) // the aspect_ratio vocabulary
	require.NoError(t, r.Add(Family()))
	for _, d := range Family().Tasks {
		def, err := r.Lookup(d.Name)
		require.NoError(t, err)
		t.Run(d.Name, func(t *testing.T) { taskstest.CheckTask(t, def) })
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
