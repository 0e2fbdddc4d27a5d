package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/client"
)

// keyHint is the hint of a refused or missing API key.
const keyHint = "set TP_API_KEY to an API key of your account (an operator makes one: " +
	"taskplatform admin key create --user EMAIL)"

// codeHints are the CLI commands that help after a refusal: the service's
// own advice names HTTP endpoints, which a user of the CLI does not call.
var codeHints = map[apierr.Code]string{
	apierr.JobNotFound:     "taskplatform jobs lists your recent jobs",
	apierr.FileNotFound:    "taskplatform files list lists your uploads, --kind art your jobs' files",
	apierr.ResultNotReady:  "taskplatform jobs get JOB shows where the job is",
	apierr.InvalidAPIKey:   keyHint,
	apierr.Unauthenticated: keyHint,
}

// codeHint is the line after a refusal whose code has a CLI command that
// helps (codeHints); empty otherwise.
func codeHint(err error) string {
	var e *client.Error
	if !errors.As(err, &e) || codeHints[apierr.Code(e.Code)] == "" {
		return ""
	}
	return "taskplatform: " + codeHints[apierr.Code(e.Code)]
}

// taskHint is a line after a task_not_found refusal of a command whose
// first argument is the task: the nearest task name in the catalogue, and
// the command that lists them (the service's own message points at the
// HTTP endpoint). Empty for any other error, or when the catalogue cannot
// be read within a few seconds.
func (r *userRun) taskHint(cmd *cobra.Command, err error) string {
	var e *client.Error
	if !errors.As(err, &e) || e.Code != "task_not_found" || r.client == nil || cmd == nil ||
		len(cmd.Flags().Args()) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, terr := r.client.Tasks(ctx)
	if terr != nil {
		return ""
	}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, t.Name)
	}
	hint := "taskplatform tasks lists them"
	if best := nearest(cmd.Flags().Args()[0], names); best != "" {
		hint = fmt.Sprintf("did you mean %s? (%s)", best, hint)
	}
	return "taskplatform: " + hint
}

// nearest is the name of names closest to name by edit distance, when it
// is close enough to be what was meant; "" otherwise.
func nearest(name string, names []string) string {
	best, dist := "", -1
	for _, n := range names {
		if d := levenshtein(name, n); dist < 0 || d < dist || d == dist && n < best {
			best, dist = n, d
		}
	}
	if best == "" || dist > max(2, len(name)/2) {
		return ""
	}
	return best
}

// apiAdvice is a clause of a service message that sends the reader to an
// HTTP endpoint: "; list tasks at GET /v1/tasks." ("upload it with POST
// /v1/files", …).
var apiAdvice = regexp.MustCompile(`(?:; |\. )([^;.]*?)\b(GET|POST|PUT|PATCH|DELETE) (/v1/[^\s;]*?)\.?$`)

// endpointCommands are the CLI commands that do what an endpoint named in
// a service message does.
var endpointCommands = map[string]string{
	"GET /v1/tasks":  "taskplatform tasks",
	"POST /v1/files": "taskplatform files upload PATH",
	"GET /v1/jobs":   "taskplatform jobs",
}

// cliAdvice rewrites a service message's closing advice for the CLI: the
// endpoint becomes the command that does the same, or the advice goes
// when no command does (the CLI prints its own hint after).
func cliAdvice(msg string) string {
	m := apiAdvice.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	head := msg[:m[0]]
	if cmd := endpointCommands[msg[m[4]:m[5]]+" "+msg[m[6]:m[7]]]; cmd != "" {
		return head + msg[m[0]:m[0]+2] + strings.TrimSpace(msg[m[2]:m[3]]) + " `" + cmd + "`."
	}
	return head + "."
}
