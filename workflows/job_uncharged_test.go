package workflows

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
)

// TestUnchargedOutputsReachTheSettlement: outputs delivered but not charged
// (a cut-out warned cutout_uncertain) are counted into the settlement, the
// warnings of every delivered output kept in the summary.
func TestUnchargedOutputsReachTheSettlement(t *testing.T) {
	warn := contract.Warning{Code: "cutout_uncertain", Message: "may be wrong"}
	outs := []contract.StepResult{
		{FileID: "a"},
		{FileID: "b", Uncharged: 1, Warnings: []contract.Warning{warn}},
		{FileID: "c", More: []string{"d"}, Uncharged: 2},
	}
	s := settleOutputs(nil, "job", outs, make([]error, len(outs)))
	require.Equal(t, contract.OutcomeSucceeded, s.Outcome)
	require.Equal(t, 3, s.Uncharged)
	require.Equal(t, []contract.Warning{warn}, s.Summary.Warnings)
}
