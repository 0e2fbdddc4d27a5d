package main

// mutation is one small deliberate bug: From (exact text, found exactly
// once in File) becomes To, and the named test of Pkg must then fail.
type mutation struct {
	// Name identifies the mutation (-only takes a list of names).
	Name string
	// Bug is what a user would suffer if the mutation shipped.
	Bug string
	// File is the path of the mutated source, from the repository root.
	File string
	// From and To are the exact text replaced and its replacement.
	From, To string
	// Pkg and Run are the package and the -run pattern of the test that
	// must fail.
	Pkg, Run string
}

// mutations are the bugs the suite must catch: the six of issue 19 that
// once passed every test, then the ones its "Also" list implies. Each
// names the test that catches it. A mutation whose From text is no longer
// in its file is reported stale: update it with the code it guards.
var mutations = []mutation{
	// The six bugs of issue 19.
	{
		Name: "ssrf-off-in-production-wiring",
		Bug:  "the production webhook client reaches loopback and private addresses",
		File: "cmd/taskplatform/stack.go",
		From: "AllowPrivate: s.cfg.AllowPrivateURLs,\n\t\t\t\t\tTimeout:      15 * time.Second,",
		To:   "AllowPrivate: true,\n\t\t\t\t\tTimeout:      15 * time.Second,",
		Pkg:  "./cmd/taskplatform",
		Run:  "^(TestStackOutboundClientsRefusePrivateAddresses|TestDevRefusesPrivateAddressesByDefault)$",
	},
	{
		Name: "production-honours-allow-private-urls",
		Bug:  "taskplatform api/worker start with TP_ALLOW_PRIVATE_URLS set, the SSRF guard off",
		File: "cmd/taskplatform/serve.go",
		From: "case cfg.AllowPrivateURLs:",
		To:   "case false && cfg.AllowPrivateURLs:",
		Pkg:  "./cmd/taskplatform", Run: "^TestProductionProcessesRefuseToStart$",
	},
	{
		Name: "production-honours-dev-step-delay",
		Bug:  "taskplatform api/worker start with TP_DEV_STEP_DELAY set, every step slowed",
		File: "cmd/taskplatform/serve.go",
		From: "case cfg.DevStepDelay != 0:",
		To:   "case cfg.DevStepDelay < 0:",
		Pkg:  "./cmd/taskplatform", Run: "^TestProductionProcessesRefuseToStart$",
	},
	{
		Name: "idempotency-fingerprint-without-webhook-and-deadline",
		Bug:  "the same Idempotency-Key with another webhook_url or start deadline answers the first job instead of 409",
		File: "submit/submit.go",
		From: `fields := []string{in.Task, string(in.Input), strconv.Itoa(in.StartTimeoutSeconds), in.WebhookURL}`,
		To:   `fields := []string{in.Task, string(in.Input), strconv.Itoa(0)}`,
		Pkg:  "./e2e", Run: "^TestIdempotencyKey$",
	},
	{
		Name: "deleted-output-not-charged",
		Bug:  "an output deleted before settlement is delivered but not charged",
		File: "models/settle.go",
		From: `(SELECT COUNT(*) FROM files WHERE files.job_id = jobs.id) AS delivered`,
		To:   `(SELECT COUNT(*) FROM files WHERE files.job_id = jobs.id AND files.deleted_at IS NULL) AS delivered`,
		Pkg:  "./models", Run: "^TestAnOutputDeletedBeforeSettlementIsStillCharged$",
	},
	{
		Name: "webhook-408-429-not-retried",
		Bug:  "a receiver answering 408 or 429 never gets the event",
		File: "activities/webhooks.go",
		From: "case res.StatusCode == http.StatusRequestTimeout || res.StatusCode == http.StatusTooManyRequests ||\n" +
			"\t\tres.StatusCode >= 500:",
		To:  "case res.StatusCode >= 500:",
		Pkg: "./activities", Run: "^TestDeliver$",
	},
	{
		Name: "signature-message-changed",
		Bug:  "receivers following the spec reject every delivery (the signed message is not the spec's four lines)",
		File: "signer/signer.go",
		From: `return []byte(deliveryID + "\n" + userID + "\n" + timestamp + "\n" + hex.EncodeToString(sum[:]))`,
		To:   `return []byte(userID + "\n" + deliveryID + "\n" + timestamp + "\n" + hex.EncodeToString(sum[:]))`,
		Pkg:  "./e2e", Run: "^TestWebhookURLGetsSignedTerminalEvent$",
	},
	{
		Name: "signature-message-hashed-differently",
		Bug:  "the README's test vector no longer matches what the service signs",
		File: "signer/signer.go",
		From: `return []byte(deliveryID + "\n" + userID + "\n" + timestamp + "\n" + hex.EncodeToString(sum[:]))`,
		To:   `return []byte(deliveryID + "\n" + userID + "\n" + timestamp + "\n" + hex.EncodeToString(sum[:16]))`,
		Pkg:  "github.com/taskplatform/taskplatform/signer", Run: "^TestREADMETestVector$",
	},

	// What the "Also" list implies.
	{
		Name: "proxy-from-environment",
		Bug:  "webhooks and fetches go through whatever HTTPS_PROXY names, past the address guard",
		File: "outbound/outbound.go",
		From: "Proxy:                  nil,",
		To:   "Proxy:                  http.ProxyFromEnvironment,",
		Pkg:  "./outbound", Run: "^TestNoProxyFromEnvironment$",
	},
	{
		Name: "webhook-no-answer-not-retried",
		Bug:  "a receiver that is down for a moment never gets the event",
		File: "activities/webhooks.go",
		From: "att.Error = \"no answer: \" + err.Error()\n\t\treturn a.finish(ctx, d, att, final, false)",
		To:   "att.Error = \"no answer: \" + err.Error()\n\t\treturn a.finish(ctx, d, att, true, false)",
		Pkg:  "./activities", Run: "^TestDeliverUnreachableIsRetried$",
	},
	{
		Name: "webhook-never-gives-up",
		Bug: "a delivery that used every attempt stays pending, announcing an attempt that never comes, and never counts " +
			"against its endpoint",
		File: "activities/webhooks.go",
		From: "final := info.RetryPolicy != nil &&",
		To:   "final := false && info.RetryPolicy != nil &&",
		Pkg:  "./e2e", Run: "^TestDeliverGivesUpAtTheLastAttempt$",
	},
	{
		Name: "job-result-ignores-settlement",
		Bug:  "the job's workflow result (and the Temporal UI) shows nothing delivered or charged",
		File: "workflows/job.go",
		From: "contract.JobResult{Outcome: settlement.Outcome, Delivered: sr.Delivered, Charged: sr.Charged}",
		To:   "contract.JobResult{Outcome: settlement.Outcome}",
		Pkg:  "./workflows", Run: "^TestJobWorkflowAnswersWhatSettlementCharged$",
	},
	{
		Name: "admit-window-ignored",
		Bug:  "an admit arriving after the workflow gave up holds credits nothing will settle",
		File: "workflows/job_admit.go",
		From: "WorkflowStartTime) > contract.AdmitWindow {",
		To:   "WorkflowStartTime) > 1000*contract.AdmitWindow {",
		Pkg:  "./workflows", Run: "^TestJobWorkflowAdmitAfterTheWindowHoldsNothing$",
	},
	{
		Name: "hold-error-taken-for-a-refusal",
		Bug:  "a hold that failed ends the job without closing its admission (its handle stays queued)",
		File: "workflows/job_admit.go",
		From: "\t\tj.holdErr = err\n",
		To:   "\t\tj.admitted = &contract.AdmitResult{}\n",
		Pkg:  "./workflows", Run: "^TestJobWorkflowHoldErrorEndsTheJobRefused$",
	},
	{
		Name: "repeated-admit-holds-again",
		Bug:  "a retried submit runs the hold again",
		File: "workflows/job_admit.go",
		From: "\tif j.admitted != nil || j.holdErr != nil {\n\t\treturn j.admitResult()",
		To:   "\tif false {\n\t\treturn j.admitResult()",
		Pkg:  "./workflows", Run: "^TestJobWorkflowRepeatedAdmitHoldsOnce$",
	},
	{
		Name: "unplanned-job-blamed-on-the-input",
		Bug:  "a job the service could not start fails processing_failed (not retryable) instead of internal",
		File: "workflows/job_steps.go",
		From: `contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."}`,
		To:   `contract.Failure{Code: contract.CodeProcessingFailed, Message: "The job could not start."}`,
		Pkg:  "./workflows", Run: "^TestJobWorkflowFailsWhenItCannotPlan$",
	},
	{
		Name: "settle-failure-ignored",
		Bug:  "a job whose settlement failed reads as succeeded, its hold never settled",
		File: "workflows/job.go",
		From: "contract.ActivitySettle, settlement).Get(dctx, &sr); err != nil {",
		To:   "contract.ActivitySettle, settlement).Get(dctx, &sr); err != nil && false {",
		Pkg:  "./workflows", Run: "^TestJobWorkflowSettleFailureFailsTheWorkflow$",
	},
	{
		Name: "refusal-after-the-handle-unheard",
		Bug:  "a job refused its credits after its handle was answered fails without telling its webhooks",
		File: "activities/hold.go",
		From: "a.emit(ctx, in.JobID, contract.EventFailed, 0, res.Events, activity.GetInfo(ctx).TaskQueue)",
		To:   "a.emit(ctx, in.JobID, contract.EventFailed, 0, nil, activity.GetInfo(ctx).TaskQueue)",
		Pkg:  "./activities", Run: "^TestHoldCreditsDecidesAPendingJob$",
	},
	{
		Name: "late-admits-claimed-twice",
		Bug:  "two workers sweep the same late job at once",
		File: "models/lateadmits.go",
		From: `pick += " FOR UPDATE SKIP LOCKED"`,
		To:   `pick += ""`,
		Pkg:  "./models", Run: "^TestConcurrentSweepsClaimEachLateAdmitOnce$",
	},
	{
		Name: "late-job-never-ends",
		Bug:  "a job answered with a late 202 stays queued for ever when its admit never reaches a workflow",
		File: "activities/lateadmits.go",
		From: `case intent.Ended == "" && now.Sub(intent.CreatedAt) >= l.o.Deadline:`,
		To:   `case false:`,
		Pkg:  "./activities", Run: "^TestLateAdmitsEndAJobPastItsDeadline$",
	},
	{
		Name: "worker-polls-steps-regardless",
		Bug:  "a worker told to run no steps runs them (start-deadline tests and drained workers)",
		File: "worker/worker.go",
		From: "if !o.NoSteps {",
		To:   "if true {",
		Pkg:  "./worker", Run: "^TestWorkerPollsItsQueues$",
	},
	{
		Name: "429-503-without-a-wait",
		Bug:  "a 429 or 503 answer does not say how long to wait",
		File: "apierr/error.go",
		From: "return e.WithRetryAfter(DefaultRetryAfter)",
		To:   "return e",
		Pkg:  "./apierr", Run: "^TestNew$",
	},
	{
		Name: "job-list-ignores-the-key-filter",
		Bug:  "GET /v1/jobs?api_key_id=… lists every key's jobs",
		File: "models/lists.go",
		From: `q = q.Where("api_key_id = ?", keyID)`,
		To:   `q = q.Where("api_key_id <> ?", "")`,
		Pkg:  "./models", Run: "^TestListJobs$",
	},
	{
		// (context.DeadlineExceeded is a net.Error too: dropping its own
		// clause is no bug, so this mutation takes a server state instead.)
		Name: "database-out-of-connections-not-unavailable",
		Bug:  "a database out of connections answers 500 instead of 503 with retry_after",
		File: "models/outage.go",
		From: `case "57P01", "57P02", "57P03", "53300":`,
		To:   `case "57P01", "57P02", "57P03":`,
		Pkg:  "./models", Run: "^TestUnavailable$",
	},
	{
		Name: "dev-gives-up-on-a-taken-port",
		Bug:  "dev (and its tests) fail when the Temporal dev server loses a port to a process starting beside it",
		File: "cmd/taskplatform/dev.go",
		From: `func (d *devServer) lostAPort() bool { return d.lostPortLine() != "" }`,
		To:   `func (d *devServer) lostAPort() bool { return false }`,
		Pkg:  "./cmd/taskplatform", Run: "^TestDevServerLostAPort$",
	},
	{
		Name: "spend-limit-counts-only-open-holds",
		Bug:  "a spend limit forgets what settled jobs were charged, so a day's spend can pass it",
		File: "models/spend.go",
		From: `jobSpend = "CASE WHEN settled_at IS NULL THEN held_credits ELSE charged_credits END"`,
		To:   `jobSpend = "CASE WHEN settled_at IS NULL THEN held_credits ELSE 0 END"`,
		Pkg:  "./models", Run: "^TestSpendLimitsRefuseAHoldThatWouldPassThem$",
	},
	{
		Name: "spend-limit-ignores-the-key",
		Bug:  "a key's spend limit counts the whole account's jobs",
		File: "models/spend.go",
		From: `cond += " AND api_key_id = ?"`,
		To:   `cond += " AND api_key_id <> ?"`,
		Pkg:  "./models", Run: "^TestSpendLimitsRefuseAHoldThatWouldPassThem$",
	},
	{
		Name: "mp4-downloads-as-bin",
		Bug:  "a delivered MP4 downloads as <id>.bin, so a video player does not open it",
		File: "models/files.go",
		From: `"video/mp4":                  "mp4",`,
		To:   ``,
		Pkg:  "./api", Run: "^TestDeliveredFilesDownloadWithTheirType$",
	},
	{
		Name: "diagonal-hairlines-despeckled",
		Bug:  "a 1-px diagonal line falls apart into specks and leaves its film",
		File: "tasks/colourwork/separate_inks.go",
		From: `var touching = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}`,
		To:   `var touching = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}`,
		Pkg:  "./tasks/colourwork", Run: "^TestLineArtKeepsInksAndHairlines$",
	},
	{
		Name: "jobs-start-without-priority",
		Bug:  "one account's backlog makes every other account's job wait behind it (first in, first out)",
		File: "jobstart/start.go",
		From: "Priority:      TemporalPriority(contract.JobPriority(in)),",
		To:   "",
		Pkg:  "./e2e", Run: "^TestFairnessOneAccountsBacklogDoesNotHoldAnother$",
	},
	{
		Name: "prefer-wait-at-the-submit-level",
		Bug:  "a Prefer: wait submit waits behind the account's ordinary submits and batches",
		File: "contract/priority.go",
		From: "\t\tlevel = LevelWait\n",
		To:   "\t\tlevel = LevelSubmit\n",
		Pkg:  "./e2e", Run: "^TestPriorityWaitBeforeSubmitBeforeBatch$",
	},
	{
		Name: "queue-eta-counts-every-older-job",
		Bug:  "a queued job's ETA counts another account's whole older backlog that fairness dispatches beside it",
		File: "models/queue_fair.go",
		From: "ahead += min(a.Queued, int64(math.Floor(float64(position)*float64(a.Weight)/own)))",
		To:   "ahead += min(a.Queued, int64(math.Floor(float64(position)*float64(a.Weight)/own))+a.Queued)",
		Pkg:  "./models", Run: "^TestQueueAheadFollowsFairDispatch$",
	},
}
