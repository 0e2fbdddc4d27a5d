package colourwork

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// BenchmarkFourInkJob runs every output of a 4-ink job at 280 mm and
// 300 dpi (a 3,307 px wide design): the composite and four films, as a
// worker runs them one after the other.
func BenchmarkFourInkJob(b *testing.B) {
	img, _ := truthDesigns()[0].render() // the badge: white, black, grey, red
	f := files{"file:d": pngOf(b, img)}
	d := task(b, "colour.separate")
	raw := json.RawMessage(`{"image":"file:d","max_colours":4,"width_mm":280,"dpi":300}`)
	in, err := d.Validate(raw)
	require.NoError(b, err)
	steps := d.Runner.Plan(in).Steps
	for n := 0; b.Loop(); n++ {
		// A job of its own each round, as every job separates its design once.
		ctx := tasks.WithEnv(tasks.WithLoader(context.Background(), f), tasks.Env{JobID: fmt.Sprintf("bench-%d", n)})
		for i := range steps {
			_, err := d.Runner.Step(ctx, in, i)
			require.NoError(b, err)
		}
	}
}
