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
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "taskplatform: configuration:", err)
		os.Exit(2)
	}
	var code int
	switch os.Args[1] {
	case "dev":
		code = runDev(ctx, cfg)
	case "api":
		code = runAPI(ctx, cfg)
	case "worker":
		code = runWorker(ctx, cfg)
	case "migrate":
		code = runMigrate(ctx, cfg)
	case "admin":
		code = runAdmin(ctx, cfg, os.Args[2:])
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "taskplatform: unknown command %q\n\n%s", os.Args[1], usage)
		code = 2
	}
	os.Exit(code)
}
