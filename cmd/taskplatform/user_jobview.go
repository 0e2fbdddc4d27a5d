package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// jobView prints a job for a reader: where it is (its outcome once it
// ended, else its lifecycle, with its place in line while queued), its
// progress and phase, its credits, its times and, for a failed or
// cancelled job, the error's message and code. jobs get --json prints the
// record instead.
func jobView(w io.Writer, j *wire.Job) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	state := j.Lifecycle
	if j.Outcome != nil {
		state = *j.Outcome
	} else if j.Lifecycle == "queued" {
		state = queueDescription(j.Queue)
	}
	fmt.Fprintf(tw, "job\t%s\n", j.JobID)
	fmt.Fprintf(tw, "task\t%s\n", j.Task)
	fmt.Fprintf(tw, "status\t%s\n", state)
	progress := fmt.Sprintf("%d", j.Progress.Done)
	if j.Progress.Total != nil {
		progress += fmt.Sprintf(" of %d", *j.Progress.Total)
	}
	if j.Progress.Phase != "" {
		progress += " (" + j.Progress.Phase + ")"
	}
	fmt.Fprintf(tw, "progress\t%s\n", progress)
	credits := fmt.Sprintf("%d %s held", j.Credits.Held, j.Credits.CreditType)
	if j.Credits.Charged != nil {
		credits = fmt.Sprintf("%d %s charged", *j.Credits.Charged, j.Credits.CreditType)
	}
	fmt.Fprintf(tw, "credits\t%s\n", credits)
	times := []string{"created " + j.CreatedAt.UTC().Format(time.DateTime)}
	if j.StartedAt != nil {
		times = append(times, "started "+j.StartedAt.UTC().Format(time.TimeOnly))
	}
	if j.EndedAt != nil {
		times = append(times, "ended "+j.EndedAt.UTC().Format(time.TimeOnly))
	}
	fmt.Fprintf(tw, "time (UTC)\t%s\n", strings.Join(times, ", "))
	if e := client.JobError(j); e != nil {
		fmt.Fprintf(tw, "error\t%s\n", describeError(e))
	}
	if j.Outcome != nil && *j.Outcome == "succeeded" {
		fmt.Fprintf(tw, "files\ttaskplatform jobs result %s lists them\n", j.JobID)
	}
	return tw.Flush()
}
