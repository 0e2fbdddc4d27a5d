package tasks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRecipeStepsRun validates every step body of every recipe against the
// task it names.
func TestRecipeStepsRun(t *testing.T) {
	for _, r := range Recipes() {
		require.NotEmpty(t, r.Steps, r.Name)
		for _, s := range r.Steps {
			require.True(t, strings.HasPrefix(s.Path, "/v1/"), s.Path)
			if s.Task == "" {
				require.Empty(t, s.Body, "%s: a body needs a task", r.Name)
				continue
			}
			d, err := Lookup(s.Task)
			require.NoError(t, err)
			require.Equal(t, "POST", s.Method)
			require.True(t, s.Path == "/v1/tasks/"+s.Task || s.Path == "/v1/tasks/"+s.Task+"/estimate", s.Path)
			in, err := d.Validate(s.Body)
			require.NoError(t, err, "%s / %s: %s", r.Name, s.Title, s.Body)
			if strings.HasSuffix(s.Path, "/estimate") {
				credits, _ := d.Estimate(in)
				require.Contains(t, s.Note, "credits "+itoa(credits))
			}
		}
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
