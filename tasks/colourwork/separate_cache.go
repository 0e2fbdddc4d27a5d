package colourwork

import (
	"context"
	"crypto/sha256"
	"encoding/json"

	"github.com/taskplatform/taskplatform/tasks"
)

// separations keeps the separations made lately, so a job's composite and
// films are cut from one separation: separating a 4-ink design at 280 mm
// and 300 dpi for every output took most of the job's time. Outputs
// asking together separate once; a failed separation is not kept
// (tasks.Shared). It holds at most cachedSeparationBytes of ink maps. An
// output whose separation was dropped, or that runs on another worker,
// separates again: the result is the same, as separating is
// deterministic.
var separations = tasks.NewShared[sepKey](cachedSeparationBytes, (*separation).bytes)

// cachedSeparationBytes bounds separations: two designs of 40 MP (an ink
// map is 3 bytes a pixel).
const cachedSeparationBytes = 240 << 20

// sepKey names a separation: its job (none in a catalogue example), so
// one account's outputs never wait on or reveal another's, the digest of
// the design's bytes and the digest of the request's options.
type sepKey struct {
	job           string
	design, input [sha256.Size]byte
}

// separationOf is the separation of the design data for in, kept or made
// by separate. It is shared: callers must not change it.
func separationOf(ctx context.Context, data []byte, in *separateInput,
	separate func() (*separation, error)) (*separation, error) {
	env, _ := tasks.EnvOf(ctx)
	opts, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	return separations.Get(ctx, sepKey{job: env.JobID, design: sha256.Sum256(data), input: sha256.Sum256(opts)},
		separate)
}

// bytes is the memory the separation's ink map holds.
func (s *separation) bytes() int { return len(s.m.label) + len(s.m.other) + len(s.m.share) }
