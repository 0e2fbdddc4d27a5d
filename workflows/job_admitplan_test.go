package workflows

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// TestAdmitPlanStartsTheFirstOutputsTogether: a job planned at admit does
// not wait for its first output before starting the others, so 8 outputs
// of a minute each take 2 minutes at 4 at once, the first 4 each leaving
// the queue.
func TestAdmitPlanStartsTheFirstOutputsTogether(t *testing.T) {
	var p parallelSteps
	e := p.env(t, 8, 0)
	p.mock(e, minutes(1, 1, 1, 1, 1, 1, 1, 1), make([]error, 8))
	e.admitAt(0)
	start := e.Now()
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
	require.ElementsMatch(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, p.delivered)
	require.ElementsMatch(t, []int{0, 1, 2, 3}, p.leaving, "the steps that leave the queue")
	require.Equal(t, contract.StepsPerJob, p.most)
	require.Equal(t, 2*time.Minute, p.settledAt.Sub(start).Round(time.Minute))
}

// TestAdmitPlanStartDeadline: the outputs a job planned at admit starts
// first each wait for a worker under the job's start deadline. The job
// fails start_timeout only when every one of them missed it; one that
// missed it while another ran is run again, and delivered.
func TestAdmitPlanStartDeadline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		delays   []time.Duration
		late     map[int]bool
		capacity map[int]string
		// firstAlone: the first output prepares what the others share.
		firstAlone bool
		code       apierr.Code // "" for a job that succeeds
		// first are the outputs started together when the job was
		// admitted, each leaving the queue; then the ones started after,
		// none leaving it.
		first, then []int
		delivered   []int
	}{
		{
			name:   "every first output misses the deadline",
			delays: minutes(1, 1, 1, 1, 1, 1),
			late:   map[int]bool{0: true, 1: true, 2: true, 3: true},
			code:   apierr.StartTimeout,
			first:  []int{0, 1, 2, 3},
		},
		{
			name:      "output 2 misses it while the others run",
			delays:    minutes(2, 2, 1, 2, 2),
			late:      map[int]bool{1: true},
			first:     []int{0, 1, 2, 3},
			then:      []int{4, 1},
			delivered: []int{0, 1, 2, 3, 4},
		},
		{
			name:      "output 2 misses it before any other ends",
			delays:    minutes(2, 0, 2, 2, 2),
			late:      map[int]bool{1: true},
			first:     []int{0, 1, 2, 3},
			then:      []int{1, 4},
			delivered: []int{0, 1, 2, 3, 4},
		},
		{
			name:      "a capacity-limited output waits for the job to leave the queue",
			delays:    minutes(1, 1),
			capacity:  map[int]string{1: contract.QueueAnalysis},
			first:     []int{0},
			then:      []int{1},
			delivered: []int{0, 1},
		},
		{
			name:       "the first output prepares what the others share",
			delays:     minutes(1, 1, 1, 1, 1),
			firstAlone: true,
			first:      []int{0},
			then:       []int{1, 2, 3, 4},
			delivered:  []int{0, 1, 2, 3, 4},
		},
		{
			name:       "the first output that prepares the others misses the deadline",
			delays:     minutes(1, 1, 1),
			late:       map[int]bool{0: true},
			firstAlone: true,
			code:       apierr.StartTimeout,
			first:      []int{0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parallelSteps{capacity: tc.capacity, late: tc.late, firstAlone: tc.firstAlone}
			e := p.env(t, len(tc.delays), 0)
			p.mock(e, tc.delays, make([]error, len(tc.delays)))
			e.admitAt(0)
			res, err := e.run()
			if tc.code != "" {
				require.Error(t, err)
				require.Equal(t, string(tc.code), e.settledError().Code)
			} else {
				require.NoError(t, err)
				require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
			}
			require.Len(t, p.started, len(tc.first)+len(tc.then))
			require.ElementsMatch(t, tc.first, p.started[:len(tc.first)], "the outputs started at admit")
			require.ElementsMatch(t, tc.first, p.leaving, "the steps that leave the queue")
			require.ElementsMatch(t, tc.then, p.started[len(tc.first):], "the steps started after")
			require.ElementsMatch(t, tc.delivered, p.delivered)
		})
	}
}
