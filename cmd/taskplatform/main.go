// Command taskplatform is the one binary of the service: the dev stack, the
// production api and worker processes, migrations and admin commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/models"
)

const usage = `taskplatform — a durable job API for image and design tasks

usage:
  taskplatform dev        the whole stack in one process (Temporal dev server + UI, worker, API)
  taskplatform api        the HTTP API (needs TP_DATABASE_URL and Temporal)
  taskplatform worker     the Temporal worker (needs TP_DATABASE_URL and Temporal)
  taskplatform migrate    apply pending database migrations
  taskplatform admin ...  accounts, credits, keys and webhooks (run "taskplatform admin" for help)

for users of the API (TP_API_KEY, TP_BASE_URL; "taskplatform run --help"):
  taskplatform run TASK [--input file.json | -] [--set key=value …] [--out DIR] [--wait] [--web] [--json]
  taskplatform jobs [--follow] | jobs get [--web]|cancel|result JOB
  taskplatform files upload PATH | files list [--kind art] | files download HANDLE… [--out DIR]
  taskplatform tasks | tasks show TASK
  taskplatform version | --version    the CLI's version and the commit it was built from
  taskplatform estimate TASK [--input file.json | -] [--set key=value …]
  taskplatform webhooks listen --forward-to localhost:3000/hook [--events e1,e2] [--json]
  taskplatform completion bash|zsh|fish   a shell completion script ("taskplatform completion bash --help")
`

// commands are the service's processes, each a subcommand; the compose test
// checks the services run one of these.
var commands = map[string]func(ctx context.Context, cfg config, args []string) int{
	"dev":     func(ctx context.Context, cfg config, _ []string) int { return runDev(ctx, cfg) },
	"api":     func(ctx context.Context, cfg config, _ []string) int { return runAPI(ctx, cfg) },
	"worker":  func(ctx context.Context, cfg config, _ []string) int { return runWorker(ctx, cfg) },
	"migrate": func(ctx context.Context, cfg config, _ []string) int { return runMigrate(ctx, cfg) },
}

// processShort is what each process command does, for its --help.
var processShort = map[string]string{
	"dev":     "the whole stack in one process (Temporal dev server + UI, worker, API)",
	"api":     "the HTTP API (needs TP_DATABASE_URL and Temporal)",
	"worker":  "the Temporal worker (needs TP_DATABASE_URL and Temporal)",
	"migrate": "apply pending database migrations",
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// process is one run of the binary: its one command tree and the parts
// that run and report its commands.
type process struct {
	stdout, stderr io.Writer
	user           *userRun
	admin          *adminRun
	// adminCmd is the admin subtree, whose commands report as admin does.
	adminCmd *cobra.Command
}

// configError is a configuration the processes and admin cannot start with.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }

// execute runs the command args name: 0 on success, 1 on a failure, 2 on
// a usage or configuration error.
func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer,
	env func(string) string,
) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	p := &process{
		stdout: stdout,
		stderr: stderr,
		user:   &userRun{stdin: stdin, stdout: stdout, stderr: stderr, env: env},
		admin:  &adminRun{stdin: stdin},
	}
	p.admin.open = p.admin.openConfigured
	defer func() {
		if p.admin.db != nil {
			models.Close(p.admin.db)
		}
	}()
	root := p.root()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	var cfgErr *configError
	switch {
	case errors.As(err, &cfgErr):
		fmt.Fprintln(stderr, "taskplatform: configuration:", cfgErr.err)
		return 2
	case cmd != nil && p.inAdmin(cmd):
		return p.admin.report(cmd, err, stdout, stderr)
	case err != nil && cmd == root:
		fmt.Fprintf(stderr, "taskplatform: %s\n\n%s", err, usage)
		return 2
	}
	return p.user.report(cmd, err)
}

// root is the binary's one command tree: the processes, admin, the user
// commands and shell completion.
func (p *process) root() *cobra.Command {
	root := &cobra.Command{
		Use:           "taskplatform",
		Short:         "a durable job API for image and design tasks",
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{fmt.Sprintf("unknown command %q", args[0])}
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error { return &usageError{"missing command"} },
	}
	root.Version = buildVersion()
	root.SetVersionTemplate("taskplatform {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	// The overview is the root's help; every other command has cobra's,
	// and admin's groups the admin overview (admin.tree): each once.
	defaultHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root {
			fmt.Fprint(c.OutOrStdout(), usage)
			return
		}
		defaultHelp(c, args)
	})
	for _, name := range []string{"dev", "api", "worker", "migrate"} {
		run := commands[name]
		root.AddCommand(&cobra.Command{
			Use:   name,
			Short: processShort[name],
			Args:  noArgs,
			RunE: func(c *cobra.Command, args []string) error {
				cfg, err := loadConfig()
				if err != nil {
					return &configError{err}
				}
				if code := run(c.Context(), cfg, args); code != 0 {
					return &exitError{code}
				}
				return nil
			},
		})
	}
	p.adminCmd = p.admin.tree()
	p.adminCmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		cfg, err := loadConfig()
		if err != nil {
			return &configError{err}
		}
		p.admin.cfg = cfg
		return nil
	}
	root.AddCommand(p.adminCmd)
	root.AddCommand(p.user.commands()...)
	return root
}

// inAdmin says whether c is admin or one of its commands.
func (p *process) inAdmin(c *cobra.Command) bool {
	for ; c != nil; c = c.Parent() {
		if c == p.adminCmd {
			return true
		}
	}
	return false
}
