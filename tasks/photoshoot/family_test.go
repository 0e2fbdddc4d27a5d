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

// TestABarePresetIsItsPoses sends poses as one preset on its own: it plans
// the preset's poses, as the preset in a list does, and a bare pose (not a
// preset) is refused.
func TestABarePresetIsItsPoses(t *testing.T) {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(image.Family()))
	require.NoError(t, r.Add(Family()))
	def, err := r.Lookup("photoshoot.create")
	require.NoError(t, err)
	body := func(poses string) []byte {
		return []byte(
			`{"product":"file:abc","product_back":"file:b","product_side":"file:s","background":"background:bg_studio_white",` +
				`"poses":` +
				poses + `,"count_per_pose":2}`,
		)
	}
	bare, err := def.Validate(body(`"pose_preset:pp_catalogue"`))
	require.NoError(t, err)
	listed, err := def.Validate(body(`["pose_preset:pp_catalogue"]`))
	require.NoError(t, err)
	want := def.Runner.Plan(listed).Steps
	require.Equal(t, 2*len(resolvePoses([]string{"pose_preset:pp_catalogue"}, "")), want)
	require.Equal(t, want, def.Runner.Plan(bare).Steps)
	_, err = def.Validate(body(`"pose:ps_woman_front"`))
	require.Error(t, err, "only a preset may be sent on its own")
}
