package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// interrupts is the channel of Ctrl-C: the test's, or the process's.
func (r *userRun) interrupts() (<-chan os.Signal, func()) {
	if r.signals != nil {
		return r.signals, func() {}
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	return ch, func() { signal.Stop(ch) }
}

func (r *userRun) runCmd() *cobra.Command {
	var in inputFlags
	var out, key string
	var wait, asJSON, web bool
	var startTimeout int
	c := &cobra.Command{
		Use:   "run TASK",
		Short: "run a task: submit it, show its progress, download its outputs",
		Long: "Submits TASK with the input (--input, --set), follows the job's live event stream with a progress bar,\n" +
			"downloads the outputs it delivered into --out (a cancelled or failed job's too: they were charged) and prints\n" +
			"the job id, its outcome, the credits the service charged, the files and, when it did not succeed, why.\n" +
			"Ctrl-C asks the service once to cancel the job and shows how it ended; a second Ctrl-C quits at once.\n" +
			"--wait=false prints the job id and returns without following the job.",
		Args:              oneArg("TASK"),
		ValidArgsFunction: r.completeTask,
		RunE: func(c *cobra.Command, args []string) error {
			body, err := r.input(c.Context(), &in, args[0])
			if err != nil {
				return err
			}
			r.asJSON, r.web = asJSON, web
			return r.run(c.Context(), args[0], body, out, key, wait, time.Duration(startTimeout)*time.Second)
		},
	}
	in.add(c)
	c.Flags().StringVarP(&out, "out", "o", "",
		"folder the outputs are downloaded into (default: a folder named after the job, such as ./job_…)")
	c.Flags().BoolVar(&wait, "wait", true, "follow the job to its end and download its outputs")
	c.Flags().BoolVar(&asJSON, "json", false, "print the job's end as one JSON object on standard output (for scripts)")
	c.Flags().BoolVar(&web, "web", false, "open the job's page in the account panel (its address is printed on stderr)")
	c.Flags().
		StringVar(&key, "idempotency-key", "", "resubmitting with the same key reaches the same job (default: a new UUID)")
	c.Flags().IntVar(&startTimeout, "start-timeout", 0, "fail the job if it cannot start within this many seconds")
	return c
}

func (r *userRun) run(
	ctx context.Context,
	task string,
	body map[string]any,
	out, key string,
	wait bool,
	startTimeout time.Duration,
) error {
	c, err := r.connect(true)
	if err != nil {
		return err
	}
	// Ctrl-C is ours from here: the first cancels the job, the second quits.
	sigs, stop := r.interrupts()
	defer stop()
	ctx = context.WithoutCancel(ctx)
	sub, err := c.Submit(ctx, task, body, &client.SubmitOptions{IdempotencyKey: key, StartTimeout: startTimeout})
	if err != nil {
		return err
	}
	fmt.Fprintf(r.stderr, "%s: job %s submitted, %d %s held\n", task, sub.JobID, sub.Credits, sub.CreditType)
	if r.web {
		u := panelURL(c, sub.JobID)
		fmt.Fprintln(r.stderr, "in the panel:", u)
		r.openWeb(u)
	}
	if !wait {
		if r.asJSON {
			return json.NewEncoder(r.stdout).Encode(map[string]string{"job_id": sub.JobID})
		}
		fmt.Fprintln(r.stdout, sub.JobID)
		return nil
	}
	return r.follow(ctx, c, sub, out, sigs)
}

// newRunBar is the progress bar run draws on stderr, first describing
// desc.
func (r *userRun) newRunBar(desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(
		-1,
		progressbar.OptionSetWriter(r.barWriter()),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(
			50*time.Millisecond,
		),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		// Finished, the bar clears itself (it would draw 100%); finish draws
		// the last line from the job as the service read it.
		progressbar.OptionClearOnFinish(),
	)
}

// follow shows the submitted job's live events on a progress bar until it
// ends, then finishes it (its outputs into out); the first of sigs asks
// the service to cancel the job, the second quits at once.
func (r *userRun) follow(
	ctx context.Context,
	c *client.Client,
	sub *client.Submission,
	out string,
	sigs <-chan os.Signal,
) error {
	bar := r.newRunBar(queueDescription(submittedQueue(sub)))
	events := make(chan client.Event)
	done := make(chan error, 1)
	sctx, cancelStream := context.WithCancel(ctx)
	defer cancelStream()
	go func() {
		j, err := c.Wait(sctx, sub.JobID, func(ev client.Event) {
			select {
			case events <- ev:
			case <-sctx.Done():
			}
		})
		if j != nil {
			err = nil // the job ended; finish reports how
		}
		done <- err
	}()
	cancelAsked := false
	// after is what becomes of the job if the user quits now.
	after := jobGoesOn
	for {
		select {
		case ev := <-events:
			showEvent(bar, ev, cancelAsked)
		case <-sigs:
			if cancelAsked {
				_ = bar.Finish()
				fmt.Fprintf(r.stderr, "\nquit; job %s %s\n", sub.JobID, after)
				return &exitError{130}
			}
			cancelAsked = true
			bar.Describe("cancelling")
			fmt.Fprintf(r.stderr, "\ncancelling job %s (Ctrl-C again to quit without waiting)\n", sub.JobID)
			after = r.askCancel(ctx, c, sub.JobID)
		case err := <-done:
			_ = bar.Finish()
			if err != nil {
				return err
			}
			return r.finish(ctx, c, sub.JobID, out)
		}
	}
}

// showEvent draws one live event of the job on bar: where it stands in
// the queue, or its progress and phase (the phase not once a cancel was
// asked: the bar says cancelling).
func showEvent(bar *progressbar.ProgressBar, ev client.Event, cancelAsked bool) {
	if ev.Event.Event == contract.EventQueue {
		// Where the queued job stands: a state, not progress.
		if !cancelAsked && ev.Queue != nil {
			bar.Describe(queueDescription(ev.Queue))
		}
		return
	}
	if ev.Progress.Total != nil && *ev.Progress.Total > 0 && bar.GetMax() != *ev.Progress.Total {
		bar.ChangeMax(*ev.Progress.Total)
	}
	if !cancelAsked {
		bar.Describe(ev.Progress.Phase)
	}
	_ = bar.Set(ev.Progress.Done)
}

// jobGoesOn is what a quit says of a job no cancel reached.
const jobGoesOn = "goes on (taskplatform jobs to see it)"

// askCancel asks the service to cancel a job and says what becomes of the
// job if the user quits now.
func (r *userRun) askCancel(ctx context.Context, c *client.Client, jobID string) string {
	ans, err := c.Cancel(ctx, jobID)
	switch {
	case err == nil && ans.Outcome != nil:
		return "has ended " + *ans.Outcome + " (taskplatform jobs to see it)"
	case err == nil:
		return "is being cancelled (taskplatform jobs shows how it ended)"
	case client.IsCode(err, "job_already_ended"):
		return "had already ended (taskplatform jobs shows how)"
	}
	fmt.Fprintln(r.stderr, "taskplatform: cancel:", describeError(err))
	return jobGoesOn
}

// finish reports how a job ended, as the service read it: the bar's last
// line with what was delivered of how many, the outcome with the charge
// the service made, the failure's reason, and the outputs delivered
// (downloaded whatever the outcome: a cancelled or failed job's were
// charged too).
func (r *userRun) finish(ctx context.Context, c *client.Client, jobID, out string) error {
	if out == "" {
		out = jobID
	}
	j, err := c.Job(ctx, jobID)
	if err != nil {
		return err
	}
	outcome := "unknown"
	if j.Outcome != nil {
		outcome = *j.Outcome
	}
	fmt.Fprintln(r.stderr, endLine(outcome, j.Progress))
	charged := "charge not settled yet"
	if j.Credits.Charged != nil {
		charged = fmt.Sprintf("%d %s charged", *j.Credits.Charged, j.Credits.CreditType)
	}
	if !r.asJSON {
		fmt.Fprintln(r.stdout, jobID)
		fmt.Fprintf(r.stdout, "%s: %d output(s), %s\n", outcome, j.Progress.Done, charged)
	}
	report := runReport{JobID: jobID, Outcome: outcome, Charged: j.Credits.Charged,
		CreditType: j.Credits.CreditType, Files: []string{}}
	if outcome != contract.OutcomeSucceeded && len(j.Error) > 0 && string(j.Error) != "null" {
		var e client.Error
		if json.Unmarshal(j.Error, &e) == nil {
			fmt.Fprintln(r.stderr, "taskplatform:", describeError(&e))
			report.Error = &e
		}
	}
	if j.Progress.Done > 0 {
		files, err := c.JobFiles(ctx, jobID)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		for i, f := range files {
			p, err := r.download(ctx, c, f, out, fmt.Sprintf("%s_%d%s", jobID, i, fileExt(f)))
			if err != nil {
				return err
			}
			report.Files = append(report.Files, p)
			if !r.asJSON {
				fmt.Fprintln(r.stdout, p)
			}
		}
	}
	if r.asJSON {
		if err := json.NewEncoder(r.stdout).Encode(report); err != nil {
			return err
		}
	}
	if outcome != contract.OutcomeSucceeded {
		return &exitError{1}
	}
	return nil
}

// endLine is the progress bar's last line: the outcome and what was
// delivered of how many ("cancelled 25% (3/12)").
func endLine(outcome string, p wire.Progress) string {
	if p.Total == nil || *p.Total <= 0 {
		return fmt.Sprintf("%s (%d/?)", outcome, p.Done)
	}
	return fmt.Sprintf("%s %d%% (%d/%d)", outcome, p.Done*100 / *p.Total, p.Done, *p.Total)
}

// download writes one result file into dir as name, readable by all (0644).
func (r *userRun) download(ctx context.Context, c *client.Client, f wire.File, dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := c.Download(ctx, f.URL, tmp); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return p, os.Rename(tmp.Name(), p)
}
