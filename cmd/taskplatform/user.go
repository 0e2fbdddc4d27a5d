package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// userRun is one run of a user command: the commands for users of the API
// (not operators), which call the HTTP API with TP_API_KEY at TP_BASE_URL,
// or the values of the config file.
type userRun struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	env            func(string) string
	// signals delivers interrupts (Ctrl-C) to run; nil reads the process's.
	signals <-chan os.Signal
	client  *client.Client
	// asJSON prints results as JSON for scripts.
	asJSON bool
	// terminal draws the progress bar whatever stderr is (tests).
	terminal bool
	// web opens the job's page in the account panel (run --web).
	web bool
}

// userMain runs a user command: 0 on success, 1 on a failure (a refused
// call, a job that failed or was cancelled), 2 on a usage error.
func userMain(ctx context.Context, args []string, r *userRun) int {
	root := r.tree()
	root.SetArgs(args)
	root.SetIn(r.stdin)
	root.SetOut(r.stdout)
	root.SetErr(r.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	return r.report(cmd, err)
}

// report ends a user command: its exit status, after saying why it failed.
func (r *userRun) report(cmd *cobra.Command, err error) int {
	if err == nil {
		return 0
	}
	var exit *exitError
	if errors.As(err, &exit) {
		return exit.code
	}
	if errors.Is(err, syscall.ECONNREFUSED) && r.client != nil {
		fmt.Fprintf(r.stderr, "taskplatform: cannot reach the service at %s: connection refused (is it running?)\n",
			r.client.BaseURL())
		return 1
	}
	if unreach := (*client.UnreachableError)(nil); errors.As(err, &unreach) && r.client != nil {
		fmt.Fprintf(r.stderr, "taskplatform: cannot reach the service at %s: the host name %s does not resolve "+
			"(check TP_BASE_URL)\n", r.client.BaseURL(), unreach.Addr)
		return 1
	}
	fmt.Fprintln(r.stderr, "taskplatform:", describeError(err))
	if hint := r.taskHint(cmd, err); hint != "" {
		fmt.Fprintln(r.stderr, hint)
	} else if hint := codeHint(err); hint != "" {
		fmt.Fprintln(r.stderr, hint)
	}
	var setup *setupError
	if errors.As(err, &setup) {
		return 2
	}
	var usage *usageError
	if errors.As(err, &usage) {
		fmt.Fprintln(r.stderr, "taskplatform:", usageHint(cmd))
		return 2
	}
	return 1
}

// usageHint is the one line after a usage error, in place of the whole
// usage, which would bury the line that says what was wrong: the command's
// --help and, for a task's input (run, estimate), the command that lists
// the task's fields.
func usageHint(cmd *cobra.Command) string {
	help := "see '" + cmd.CommandPath() + " --help'"
	if args := cmd.Flags().Args(); len(args) > 0 && (cmd.Name() == "run" || cmd.Name() == "estimate") {
		return "see 'taskplatform tasks show " + args[0] + "' for its fields, " + help[4:] + " for the flags"
	}
	return help
}

// setupError is a command used rightly in an environment that lacks
// something it needs (an API key): exit 2, without the usage, which would
// bury the one line that says what to set.
type setupError struct{ msg string }

func (e *setupError) Error() string { return e.msg }

// exitError ends a command with a status after it said why.
type exitError struct{ code int }

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// describeError is an error as the CLI prints it: the service's message,
// the field it names and its code.
func describeError(err error) string {
	var e *client.Error
	if errors.As(err, &e) {
		msg := cliAdvice(e.Message)
		// The field once: "colors must be array" already names it.
		if e.Field != "" && !strings.HasPrefix(msg, e.Field) {
			msg = e.Field + ": " + msg
		}
		msg += " (" + e.Code + ")"
		if e.Code == "insufficient_credits" {
			msg += fmt.Sprintf(" — required %d, balance %d", e.Required, e.Balance)
		}
		if e.RequestID != "" {
			msg += " [" + e.RequestID + "]"
		}
		return msg
	}
	return err.Error()
}

// userConfig is the optional config file
// ($XDG_CONFIG_HOME/taskplatform/config.json, else
// ~/.config/taskplatform/config.json); TP_BASE_URL and TP_API_KEY win.
type userConfig struct {
	BaseURL string `json:"base_url"`
	APIKey  string `json:"api_key"`
}

func (r *userRun) configPath() string {
	if d := r.env("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "taskplatform", "config.json")
	}
	if h := r.env("HOME"); h != "" {
		return filepath.Join(h, ".config", "taskplatform", "config.json")
	}
	return ""
}

// connect makes the API client from the environment and the config file.
func (r *userRun) connect(needKey bool) (*client.Client, error) {
	if r.client != nil {
		return r.client, nil
	}
	var cfg userConfig
	if p := r.configPath(); p != "" {
		if raw, err := os.ReadFile(p); err == nil {
			if err := json.Unmarshal(raw, &cfg); err != nil {
				return nil, fmt.Errorf("config file %s: %w", p, err)
			}
		}
	}
	if v := r.env("TP_BASE_URL"); v != "" {
		cfg.BaseURL = v
	}
	if v := r.env("TP_API_KEY"); v != "" {
		cfg.APIKey = v
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://127.0.0.1:8080"
	}
	if needKey && cfg.APIKey == "" {
		return nil, &setupError{"no API key: set TP_API_KEY (with a local stack: . .data/dev.env), or api_key in " +
			r.configPath()}
	}
	r.client = client.New(cfg.BaseURL, cfg.APIKey, client.WithUserAgent("taskplatform-cli"))
	return r.client, nil
}

// tree is the user commands under a root of their own (the tests').
func (r *userRun) tree() *cobra.Command {
	root := &cobra.Command{Use: "taskplatform", SilenceErrors: true, SilenceUsage: true}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	root.AddCommand(r.commands()...)
	return root
}

// commands are the user commands.
func (r *userRun) commands() []*cobra.Command {
	files := &cobra.Command{
		Use:   "files",
		Short: "your files",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return &usageError{`missing command after "files": upload, list or download`}
		},
	}
	files.AddCommand(r.filesUpload(), r.filesList(), r.filesDownload())
	jobs, tasks := r.jobsCmd(), r.tasksCmd()
	jobs.AddCommand(r.jobCommands()...)
	tasks.AddCommand(r.tasksShow())
	cmds := []*cobra.Command{r.runCmd(), jobs, files, tasks, r.estimateCmd(), r.webhooksCmd(), r.versionCmd()}
	r.addJQ(cmds)
	return cmds
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q", args[0])}
	}
	return nil
}

func oneArg(what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return &usageError{"expected one argument: " + what}
		}
		return nil
	}
}

// inputFlags are --input and --set, shared by run and estimate.
type inputFlags struct {
	file string
	sets []string
}

func (f *inputFlags) add(c *cobra.Command) {
	c.Flags().StringVarP(&f.file, "input", "i", "", "the task input: a JSON file, or - for standard input")
	c.Flags().
		StringArrayVar(&f.sets, "set", nil, "set one input field: key=value, typed by the task's input schema (a.b=… nests)")
}

// body is the task input: the file's object with every --set applied, its
// value typed by the property's type in schema (nil: JSON when it parses).
func (f *inputFlags) body(stdin io.Reader, schema *schemaNode) (map[string]any, error) {
	in := map[string]any{}
	if f.file != "" {
		var raw []byte
		var err error
		if f.file == "-" {
			raw, err = io.ReadAll(stdin)
		} else {
			raw, err = os.ReadFile(f.file)
		}
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, &usageError{"--input is not a JSON object: " + err.Error()}
		}
	}
	for _, s := range f.sets {
		key, value, ok := strings.Cut(s, "=")
		if !ok || key == "" {
			return nil, &usageError{fmt.Sprintf("--set %q: expected key=value", s)}
		}
		obj, node := in, schema
		parts := strings.Split(key, ".")
		for i, p := range parts {
			var prop *schemaNode
			if node != nil {
				prop = node.Properties[p]
				if prop == nil && node.closed() {
					return nil, unknownField(key, p, node)
				}
			}
			if i == len(parts)-1 {
				v, err := setValue(key, value, prop)
				if err != nil {
					return nil, err
				}
				obj[p] = v
				break
			}
			next, ok := obj[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				obj[p] = next
			}
			obj, node = next, prop
		}
	}
	return in, nil
}

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
	bar := progressbar.NewOptions(
		-1,
		progressbar.OptionSetWriter(r.barWriter()),
		progressbar.OptionSetDescription(queueDescription(submittedQueue(sub))),
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
			if ev.Event.Event == contract.EventQueue {
				// Where the queued job stands: a state, not progress.
				if !cancelAsked && ev.Queue != nil {
					bar.Describe(queueDescription(ev.Queue))
				}
				continue
			}
			if ev.Progress.Total != nil && *ev.Progress.Total > 0 && bar.GetMax() != *ev.Progress.Total {
				bar.ChangeMax(*ev.Progress.Total)
			}
			if !cancelAsked {
				bar.Describe(ev.Progress.Phase)
			}
			_ = bar.Set(ev.Progress.Done)
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

func (r *userRun) jobsCmd() *cobra.Command {
	var follow, asJSON bool
	var limit int
	c := &cobra.Command{
		Use:   "jobs",
		Short: "list your jobs, newest first; --follow prints each change as it happens",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if follow && asJSON {
				return &usageError{"--json prints one page of jobs, --follow keeps listing: choose one"}
			}
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			if asJSON {
				page, err := cl.Jobs(c.Context(), limit, "")
				if err != nil {
					return err
				}
				return r.printJSON(page)
			}
			return r.jobs(c.Context(), cl, limit, follow)
		},
	}
	c.Flags().
		BoolVarP(&follow, "follow", "f", false, "keep listing: print a line whenever a recent job changes (Ctrl-C to stop)")
	c.Flags().IntVar(&limit, "limit", 20, "how many of the newest jobs")
	c.Flags().BoolVar(&asJSON, "json", false, "print the page of jobs (items, has_more, next_cursor) as one JSON object")
	return c
}

// jobCells are a job's columns in the jobs table: JOB, TASK, STATE,
// DONE, PHASE, CREATED.
func jobCells(j wire.Job) []string {
	state := j.Lifecycle
	if j.Outcome != nil {
		state = *j.Outcome
	}
	total := "?"
	if j.Progress.Total != nil {
		total = strconv.Itoa(*j.Progress.Total)
	}
	return []string{j.JobID, j.Task, state, fmt.Sprintf("%d/%s", j.Progress.Done, total), j.Progress.Phase,
		j.CreatedAt.UTC().Format(time.RFC3339)}
}

// jobsHeader is the jobs table's header; jobsMinWidths the least width of
// each column, so that the lines --follow prints later, one at a time,
// line up with it: an id, the longest task names, every outcome, 12/12,
// a long phase.
var (
	jobsHeader    = []string{"JOB", "TASK", "STATE", "DONE", "PHASE", "CREATED"}
	jobsMinWidths = []int{26, 20, 9, 7, 12, 20}
)

// jobsTable lays out the jobs table with widths fixed once, from the
// header, the first page and jobsMinWidths.
type jobsTable struct{ widths []int }

func newJobsTable(rows [][]string) *jobsTable {
	t := &jobsTable{widths: slices.Clone(jobsMinWidths)}
	for _, row := range append([][]string{jobsHeader}, rows...) {
		for i, c := range row {
			t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
		}
	}
	return t
}

// line is one row, each column but the last padded to its width and two
// spaces apart.
func (t *jobsTable) line(cells []string) string {
	var b strings.Builder
	for i, c := range cells {
		if i == len(cells)-1 {
			b.WriteString(c)
			break
		}
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", max(t.widths[i]-utf8.RuneCountInString(c), 0)+2))
	}
	return b.String()
}

func (r *userRun) jobs(ctx context.Context, c *client.Client, limit int, follow bool) error {
	page, err := c.Jobs(ctx, limit, "")
	if err != nil {
		return err
	}
	rows := make([][]string, len(page.Items))
	for i, j := range page.Items {
		rows[i] = jobCells(j)
	}
	table := newJobsTable(rows)
	fmt.Fprintln(r.stdout, table.line(jobsHeader))
	seen := map[string]string{}
	for i, j := range page.Items {
		seen[j.JobID] = table.line(rows[i])
		fmt.Fprintln(r.stdout, seen[j.JobID])
	}
	if !follow {
		return nil
	}
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		page, err := c.Jobs(ctx, limit, "")
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for i := len(page.Items) - 1; i >= 0; i-- {
			line := table.line(jobCells(page.Items[i]))
			if seen[page.Items[i].JobID] != line {
				seen[page.Items[i].JobID] = line
				fmt.Fprintln(r.stdout, line)
			}
		}
	}
}

func (r *userRun) filesUpload() *cobra.Command {
	var externalID string
	c := &cobra.Command{
		Use:   "upload PATH",
		Short: "upload a file; prints its handle (file:…), which any task input accepts",
		Args:  oneArg("PATH"),
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			rec, err := cl.Upload(c.Context(), args[0], f, externalID)
			if err != nil {
				return err
			}
			// The handle alone on stdout, for $(taskplatform files upload …).
			fmt.Fprintln(r.stderr, uploadedLine(rec))
			fmt.Fprintln(r.stdout, rec.File)
			return nil
		},
	}
	c.Flags().StringVar(&externalID, "external-id", "", "your own id of the file (for example a product code)")
	return c
}

func (r *userRun) tasksCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "tasks",
		Short: "the task catalogue as a table; tasks show TASK for one",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cl, err := r.connect(false)
			if err != nil {
				return err
			}
			ts, err := cl.Tasks(c.Context())
			if err != nil {
				return err
			}
			if asJSON {
				if ts == nil {
					ts = []client.Task{}
				}
				return r.printJSON(ts)
			}
			tw := tabwriter.NewWriter(r.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TASK\tCATEGORY\tTITLE\tSTATUS")
			for _, t := range ts {
				status := "current"
				if t.Status != nil {
					status = *t.Status
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, deref(t.Category), deref(t.Title), status)
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false,
		"print the catalogue as one JSON array of tasks (schemas, docs and price) on standard output")
	return c
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (r *userRun) estimateCmd() *cobra.Command {
	var in inputFlags
	var asJSON bool
	c := &cobra.Command{
		Use:               "estimate TASK",
		Short:             "the cost ceiling of a run, checked exactly as a submit; nothing is held",
		Args:              oneArg("TASK"),
		ValidArgsFunction: r.completeTask,
		RunE: func(c *cobra.Command, args []string) error {
			body, err := r.input(c.Context(), &in, args[0])
			if err != nil {
				return err
			}
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			e, err := cl.Estimate(c.Context(), args[0], body)
			if err != nil {
				return err
			}
			if asJSON {
				return r.printJSON(e)
			}
			fmt.Fprintf(r.stdout, "%d %s (%d output(s) × %d)\n", e.Credits, e.CreditType, e.Outputs, e.PricePerOutput)
			return nil
		},
	}
	in.add(c)
	c.Flags().BoolVar(&asJSON, "json", false,
		"print the estimate (credits, credit_type, outputs, price_per_output, valid_until) as one JSON object")
	return c
}
