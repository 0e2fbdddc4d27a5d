package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
)

// tasksShow prints one task: its title, unit and every input field with
// its type and default.
func (r *userRun) tasksShow() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:               "show TASK",
		Short:             "one task: what it does, its price and its input fields with their types and defaults",
		Args:              oneArg("TASK"),
		ValidArgsFunction: r.completeTask,
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(false)
			if err != nil {
				return err
			}
			ts, err := cl.Tasks(c.Context())
			if err != nil {
				return err
			}
			names := make([]string, 0, len(ts))
			for _, t := range ts {
				if names = append(names, t.Name); t.Name != args[0] {
					continue
				}
				if asJSON {
					return r.printJSON(t)
				}
				fmt.Fprintf(r.stdout, "%s — %s\n", t.Name, deref(t.Title))
				if d := deref(t.Description); d != "" {
					fmt.Fprintln(r.stdout, d)
				}
				fmt.Fprintf(r.stdout, "unit: %s\n", deref(t.Unit))
				r.printPrice(t.Price)
				fmt.Fprintln(r.stdout)
				var n schemaNode
				_ = json.Unmarshal(t.InputSchema, &n)
				return r.fieldTable(&n)
			}
			if best := nearest(args[0], names); best != "" {
				return fmt.Errorf("no task %q: did you mean %s? (taskplatform tasks lists them)", args[0], best)
			}
			return fmt.Errorf("no task %q (taskplatform tasks lists them)", args[0])
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false,
		"print the task (schemas, docs and price) as one JSON object on standard output")
	return c
}

// fieldTable prints a schema's properties, sorted, with type and default;
// a field the task needs and has no default for says "(required)".
func (r *userRun) fieldTable(n *schemaNode) error {
	tw := tabwriter.NewWriter(r.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIELD\tTYPE\tDEFAULT")
	names := make([]string, 0, len(n.Properties))
	for p := range n.Properties {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		prop := n.Properties[p]
		typ := prop.typeName()
		if typ == "array" && prop.Items.typeName() != "" {
			typ = "array of " + prop.Items.typeName()
		}
		def := strings.TrimSpace(string(prop.Default))
		switch {
		case def != "":
		case slices.Contains(n.Required, p):
			def = "(required)"
		default:
			def = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p, typ, def)
	}
	return tw.Flush()
}

// jobCommands are jobs get, cancel and result. get and result always
// print JSON; their --json is accepted so that every command a script
// calls takes it.
func (r *userRun) jobCommands() []*cobra.Command {
	var web, getJSON, cancelJSON, resultJSON bool
	get := &cobra.Command{
		Use: "get JOB", Short: "one job's record as JSON; --web opens its page in the panel", Args: oneArg("JOB"),
		RunE: func(c *cobra.Command, args []string) error {
			if web && getJSON {
				return &usageError{"--web prints an address, --json the record: choose one"}
			}
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			j, err := cl.Job(c.Context(), args[0])
			if err != nil {
				return err
			}
			if web {
				u := panelURL(cl, j.JobID)
				fmt.Fprintln(r.stdout, u)
				r.openWeb(u)
				return nil
			}
			return r.printJSON(j)
		},
	}
	get.Flags().BoolVar(&web, "web", false, "print the job's page in the account panel and open it in a browser")
	get.Flags().BoolVar(&getJSON, "json", false, "print the record as JSON (the default)")
	cancel := &cobra.Command{
		Use: "cancel JOB", Short: "ask a job to stop; prints the job and its lifecycle when asked", Args: oneArg("JOB"),
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			a, err := cl.Cancel(c.Context(), args[0])
			if err != nil {
				return err
			}
			if cancelJSON {
				return r.printJSON(a)
			}
			fmt.Fprintf(r.stdout, "%s %s\n", a.JobID, a.Lifecycle)
			return nil
		},
	}
	cancel.Flags().BoolVar(&cancelJSON, "json", false,
		"print the answer (job_id, lifecycle, outcome, status_url) as one JSON object")
	result := &cobra.Command{
		Use: "result JOB", Short: "a succeeded job's result as JSON", Args: oneArg("JOB"),
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			res, err := cl.Result(c.Context(), args[0])
			if err != nil {
				return err
			}
			return r.printJSON(res)
		},
	}
	result.Flags().BoolVar(&resultJSON, "json", false, "print the result as JSON (the default)")
	return []*cobra.Command{get, cancel, result}
}

func (r *userRun) printJSON(v any) error {
	e := json.NewEncoder(r.stdout)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

// versionCmd prints the CLI's module version.
func (r *userRun) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use: "version", Short: "the CLI's version", Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintln(r.stdout, "taskplatform", v)
			return nil
		},
	}
}

// printPrice prints a task's price: per output, or per value of the
// option it depends on; nothing when the price list has no row for it.
func (r *userRun) printPrice(p *client.Price) {
	switch {
	case p == nil:
	case p.PerOutput != nil:
		fmt.Fprintf(r.stdout, "price: %d %s per %s\n", *p.PerOutput, p.CreditType, p.Unit)
	default:
		parts := make([]string, 0, len(p.Prices))
		for _, o := range p.Prices {
			parts = append(parts, fmt.Sprintf("%s=%d", o.Value, o.Credits))
		}
		fmt.Fprintf(r.stdout, "price: %s %s per %s by %s\n", strings.Join(parts, ", "), p.CreditType, p.Unit,
			deref(p.DependsOn))
	}
}

// completeTask completes a TASK argument with the catalogue's task names
// (none when the service cannot be reached within two seconds).
func (r *userRun) completeTask(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	cl, err := r.connect(false)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	ts, err := cl.Tasks(ctx)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, t.Name+"\t"+deref(t.Title))
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}
