// Command taskplatform is the one binary of the service: the dev stack, the
// production api and worker processes, migrations and admin commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `taskplatform — a durable job API for image and design tasks

usage:
  taskplatform dev        the whole stack in one process (Temporal dev server + UI, worker, API)
  taskplatform api        the HTTP API (needs TP_DATABASE_URL and Temporal)
  taskplatform worker     the Temporal worker (needs TP_DATABASE_URL and Temporal)
  taskplatform migrate    apply pending database migrations
  taskplatform admin ...  accounts, credits, keys and webhooks (run "taskplatform admin" for help)

for users of the API (TP_API_KEY, TP_BASE_URL; "taskplatform run --help"):
  taskplatform run TASK [--input file.json | -] [--set key=value …] [--out DIR] [--wait] [--web]
  taskplatform jobs [--follow] | jobs get [--web]|cancel|result JOB
  taskplatform files upload PATH | files list [--kind art] | files download HANDLE… [--out DIR]
  taskplatform tasks | tasks show TASK
  taskplatform version
  taskplatform estimate TASK [--input file.json | -] [--set key=value …]
  taskplatform webhooks listen --forward-to localhost:3000/hook
`

// commands maps each subcommand to what runs it; the compose test checks the
// services run one of these.
var commands = map[string]func(ctx context.Context, cfg config, args []string) int{
	"dev":     func(ctx context.Context, cfg config, _ []string) int { return runDev(ctx, cfg) },
	"api":     func(ctx context.Context, cfg config, _ []string) int { return runAPI(ctx, cfg) },
	"worker":  func(ctx context.Context, cfg config, _ []string) int { return runWorker(ctx, cfg) },
	"migrate": func(ctx context.Context, cfg config, _ []string) int { return runMigrate(ctx, cfg) },
	"admin":   runAdmin,
}

func init() {
	for _, name := range userCommands {
		commands[name] = func(ctx context.Context, cfg config, args []string) int {
			return runUser(ctx, cfg, append([]string{name}, args...))
		}
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	}
	run, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "taskplatform: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "taskplatform: configuration:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, cfg, os.Args[2:])
	stop()
	os.Exit(code)
}
