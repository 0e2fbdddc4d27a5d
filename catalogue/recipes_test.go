package catalogue_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRecipeStepsRun validates every step body of every recipe against the
// task it names.
func TestRecipeStepsRun(t *testing.T) {
	c := served()
	require.NotEmpty(t, c.Recipes())
	for _, r := range c.Recipes() {
		require.NotEmpty(t, r.Steps, r.Name)
		for _, s := range r.Steps {
			require.True(t, strings.HasPrefix(s.Path, "/v1/"), s.Path)
			if s.Task == "" {
				require.Empty(t, s.Body, "%s: a body needs a task", r.Name)
				continue
			}
			d, err := c.Tasks().Lookup(s.Task)
			require.NoError(t, err)
			require.Equal(t, "POST", s.Method)
			require.True(t, s.Path == "/v1/tasks/"+s.Task || s.Path == "/v1/tasks/"+s.Task+"/estimate", s.Path)
			in, err := d.Validate(s.Body)
			require.NoError(t, err, "%s / %s: %s", r.Name, s.Title, s.Body)
			if strings.HasSuffix(s.Path, "/estimate") {
				credits, _ := d.Estimate(in)
				require.Contains(t, s.Note, "credits "+strconv.FormatInt(credits, 10))
			}
		}
	}
}

// TestBrandColourRecipeSendsTheTriad runs the palette step of
// pattern_from_brand_colour and checks the pattern step sends exactly the
// colours it delivers, as the recipe's note says.
func TestBrandColourRecipeSendsTheTriad(t *testing.T) {
	c := served()
	for _, r := range c.Recipes() {
		if r.Name != "pattern_from_brand_colour" {
			continue
		}
		palette, err := c.Tasks().Lookup(r.Steps[0].Task)
		require.NoError(t, err)
		in, err := palette.Validate(r.Steps[0].Body)
		require.NoError(t, err)
		out, err := palette.Runner.Step(context.Background(), in, 0)
		require.NoError(t, err)
		var hexes []string
		for _, x := range out.Meta["colors"].([]any) {
			hexes = append(hexes, x.(map[string]any)["hex"].(string))
		}
		var body struct{ Colors []string }
		require.NoError(t, json.Unmarshal(r.Steps[2].Body, &body))
		require.Equal(t, hexes, body.Colors)
		want, _ := json.Marshal(hexes)
		require.Contains(t, r.Steps[1].Note, string(want))
		return
	}
	t.Fatal("no recipe pattern_from_brand_colour")
}
