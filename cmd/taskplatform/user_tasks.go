package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
)

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
