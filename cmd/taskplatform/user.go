package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
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
