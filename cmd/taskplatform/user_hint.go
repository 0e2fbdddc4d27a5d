package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
)

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
