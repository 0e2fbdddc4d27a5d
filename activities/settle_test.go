package activities_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestSettleChargesDeliveredOutputsOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		delivered int
		outcome   string
		charged   int64 // price 3 × delivered, never above the hold of 7
	}{
		{name: "nothing delivered", delivered: 0, outcome: contract.OutcomeFailed, charged: 0},
		{name: "some delivered", delivered: 2, outcome: contract.OutcomeSucceeded, charged: 6},
		{name: "more than the hold covers", delivered: 3, outcome: contract.OutcomeSucceeded, charged: 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
				acts := newActivities(t, db)
				reg := prometheus.NewRegistry()
				acts.Metrics = activities.NewJobMetrics(reg)
				env := newEnv(acts)
				u := newUser(t, db, 10)
				in := jobInput(u, 7, 3)
				admit(t, env, acts, in)
				require.EqualValues(t, 3, available(t, db, u))
				deliverOutputs(t, db, job(t, db, in.JobID), tc.delivered)

				settle := contract.SettleInput{JobID: in.JobID, Outcome: tc.outcome}
				if tc.outcome == contract.OutcomeFailed {
					settle.Failure = &contract.Failure{
						Code:    contract.CodeProcessingFailed,
						Message: "The tile could not be drawn.",
					}
				}
				res := mustExec[contract.SettleResult](t, env, acts.Settle, settle)
				require.Equal(t, contract.SettleResult{Delivered: tc.delivered, Charged: tc.charged}, res)
				require.EqualValues(t, 10-tc.charged, available(t, db, u), "the rest of the hold is released")
				require.Equal(t, available(t, db, u), ledgerSum(t, db, u), "the ledger adds up to the balance")
				rows := ledgerRows(t, db, in.JobID)

				j := job(t, db, in.JobID)
				require.Equal(t, contract.LifecycleTerminal, j.Lifecycle)
				require.Equal(t, tc.outcome, *j.Outcome)
				require.Equal(t, tc.charged, j.ChargedCredits)
				require.Equal(t, tc.delivered, j.ProgressDone)
				require.NotNil(t, j.SettledAt)

				// Settling again (a retried activity) answers the same and writes nothing.
				again := mustExec[contract.SettleResult](
					t,
					env,
					acts.Settle,
					contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeCancelled},
				)
				require.Equal(t, res, again)
				require.Equal(t, rows, ledgerRows(t, db, in.JobID))
				require.EqualValues(t, 10-tc.charged, available(t, db, u))
				require.Equal(t, tc.outcome, *job(t, db, in.JobID).Outcome, "the first outcome stands")
				counted := fmt.Sprintf(`# HELP taskplatform_jobs_settled_total Jobs settled, by task and outcome.
# TYPE taskplatform_jobs_settled_total counter
taskplatform_jobs_settled_total{outcome=%q,task=%q} 1
# HELP taskplatform_credits_charged_total Credits charged at settlement, by task and outcome.
# TYPE taskplatform_credits_charged_total counter
taskplatform_credits_charged_total{outcome=%q,task=%q} %d
`, tc.outcome, j.Task, tc.outcome, j.Task, tc.charged)
				require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(counted),
					"taskplatform_jobs_settled_total", "taskplatform_credits_charged_total"), "counted once, by task and outcome")
			})
		})
	}
}

func TestSettleMakesTheFailurePublic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		outcome    string
		code       string
		message    string
		retryAfter int64
	}{
		{contract.OutcomeFailed, contract.CodeProcessingFailed, "The motif could not be read.", 0},
		{contract.OutcomeFailed, contract.CodeContentRefused, "The image was refused.", 0},
		{contract.OutcomeFailed, contract.CodeInternal, "Something went wrong.", 0},
		{contract.OutcomeFailed, contract.CodeStartTimeout, "The job could not start in time.", 0},
		{contract.OutcomeFailed, contract.CodeServiceUnavailable, "The model server cannot serve now.", 60},
		{contract.OutcomeCancelled, contract.CodeCancelled, "The job was cancelled.", 0},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			u := newUser(t, db, 10)
			in := jobInput(u, 6, 3)
			admit(t, env, acts, in)
			deliverOutputs(t, db, job(t, db, in.JobID), 1)

			res := mustExec[contract.SettleResult](
				t,
				env,
				acts.Settle,
				contract.SettleInput{JobID: in.JobID, Outcome: tc.outcome,
					Failure: &contract.Failure{Code: tc.code, Message: tc.message, RetryAfter: tc.retryAfter}},
			)
			require.Equal(
				t,
				contract.SettleResult{Delivered: 1, Charged: 3},
				res,
				"delivered outputs are charged whatever the outcome",
			)

			entry, ok := apierr.Lookup(apierr.Code(tc.code))
			require.True(t, ok, "%s is catalogued", tc.code)
			j := job(t, db, in.JobID)
			require.Equal(t, tc.outcome, *j.Outcome)
			e := publicError(t, j)
			require.Equal(t, tc.code, e["code"])
			require.Equal(t, tc.message, e["message"])
			require.Equal(t, in.JobID, e["job_id"])
			require.Equal(t, string(entry.Type), e["type"])
			require.Equal(t, entry.Retryable, e["retryable"])
			ctx, _ := e["ctx"].(map[string]any)
			if tc.retryAfter > 0 { // not the catalogue's 2 s of any 503
				require.EqualValues(t, tc.retryAfter, ctx["retry_after"], "the wait the failure names")
			}
		})
	}
}

func TestSettleStoresTheSummary(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)
	in := jobInput(u, 6, 3)
	admit(t, env, acts, in)
	deliverOutputs(t, db, job(t, db, in.JobID), 1)

	field := "outputs[1]"
	summary := &contract.Summary{Requested: 2, Delivered: 1, Warnings: []contract.Warning{
		{
			Code:    contract.CodeOutputNotProduced,
			Field:   &field,
			Message: "Output 1 could not be made; it was not charged.",
		}}}
	mustExec[contract.SettleResult](
		t,
		env,
		acts.Settle,
		contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded, Summary: summary},
	)

	j := job(t, db, in.JobID)
	require.Nil(t, j.Error, "a succeeded job has no error")
	require.NotNil(t, j.Summary)
	var got contract.Summary
	require.NoError(t, json.Unmarshal([]byte(*j.Summary), &got))
	require.Equal(t, *summary, got)
}
