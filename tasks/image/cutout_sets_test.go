package image

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// shotSet is one set of product shots with truth, as its floor test and
// its benchmark read it: the shots, what kind each is, the floors a run
// of the cut-out set (fifthFloor, holdToFloors) and the shots it refused
// with a reason or delivered with its outline partly drawn that day.
type shotSet struct {
	name    string            // the set's name, the prefix of its benchmark's metrics: "tenth"
	shots   func() []shot     // the shots with truth
	kinds   map[string]string // each shot's kind, printed by the benchmark; nil prints none
	floors  map[string]fifthFloor
	mean    float64         // the mean IoU's floor
	refused map[string]bool // shots refused with a reason today
	drawn   []string        // shots delivered with their outline partly drawn (warned, uncharged) today
}

// hold cuts out the set's shots as the task does and holds them to the
// set's floors, its refusals and its drawn outlines.
func (s shotSet) hold(t *testing.T) fifthFigures {
	f := measureFifth(t, s.shots(), "")
	for name := range s.refused {
		require.NotEmpty(t, f.scores[name].err, "%s: refused with a reason (today's behaviour)", name)
	}
	for _, name := range s.drawn {
		require.True(t, f.scores[name].inferred, "%s: its outline partly drawn, delivered as uncertain", name)
	}
	holdToFloors(t, f, s.floors, s.mean)
	return f
}

// bench prints the set's figures: go test -run '^$' -bench Cutout<Set>
// ./tasks/image (CUTOUT_DIR=/some/dir writes each input, its cut-out over
// magenta beside it and the cut-out).
func (s shotSet) bench(b *testing.B) fifthFigures {
	var f fifthFigures
	shots := s.shots()
	for range b.N {
		f = measureFifth(b, shots, os.Getenv("CUTOUT_DIR"))
	}
	if s.kinds != nil {
		for _, sh := range shots {
			fmt.Fprintf(os.Stdout, "%-38s %-30s IoU %.4f\n", sh.name, s.kinds[sh.name], f.scores[sh.name].mainIoU)
		}
	}
	printShots(shots, f)
	b.ReportMetric(f.meanIoU, s.name+"MeanIoU")
	b.ReportMetric(f.minIoU, s.name+"MinIoU")
	b.ReportMetric(f.light, s.name+"Light")
	b.ReportMetric(f.hole, s.name+"Hole")
	b.ReportMetric(f.glassMAE, s.name+"GlassMAE")
	return f
}
