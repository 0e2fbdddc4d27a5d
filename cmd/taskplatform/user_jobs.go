package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

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
