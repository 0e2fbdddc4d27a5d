package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
)

// tasksShow prints one task: its title, unit, price and every input field
// (fieldTable).
func (r *userRun) tasksShow() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use: "show TASK",
		Short: "one task: what it does, its price and its input fields (needed ones first) with their types, " +
			"defaults, allowed values and descriptions",
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
				if err := r.fieldTable(&n); err != nil {
					return err
				}
				exs, err := cl.TaskExamples(c.Context(), t.Name)
				if err != nil {
					return err
				}
				r.printExample(exs, t.Name, &n)
				return nil
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

// fieldTable prints a schema's properties: the fields the task needs
// first (in the order the schema requires them), then the others by name,
// each with its type, default ("(required)" for a needed field without
// one) and allowed values or bounds; then each field's description, which
// says which variant uses it.
func (r *userRun) fieldTable(n *schemaNode) error {
	names := make([]string, 0, len(n.Properties))
	for p := range n.Properties {
		if !slices.Contains(n.Required, p) {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	required := slices.DeleteFunc(slices.Clone(n.Required), func(p string) bool { return n.Properties[p] == nil })
	names = append(required, names...)
	tw := tabwriter.NewWriter(r.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIELD\tTYPE\tDEFAULT\tALLOWED")
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p, typ, def, allowed(prop))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	described := false
	for _, p := range names {
		if d := strings.TrimSpace(n.Properties[p].Description); d != "" {
			if !described {
				fmt.Fprintln(r.stdout)
				described = true
			}
			fmt.Fprintf(r.stdout, "%s: %s\n", p, d)
		}
	}
	return nil
}

// allowedShown is the most enum values tasks show lists for one field.
const allowedShown = 12

// allowed is a field's allowed values (its enum, or its items' enum) or its
// bounds, as one short phrase; "-" when the schema sets none.
func allowed(n *schemaNode) string {
	enum := n.Enum
	if len(enum) == 0 && n.Items != nil {
		enum = n.Items.Enum
	}
	if len(enum) > 0 {
		vals := make([]string, 0, min(len(enum), allowedShown))
		for _, v := range enum[:min(len(enum), allowedShown)] {
			if v == nil {
				v = "null"
			}
			vals = append(vals, fmt.Sprint(v))
		}
		out := strings.Join(vals, ", ")
		if len(enum) > allowedShown {
			out += fmt.Sprintf(" (and %d more)", len(enum)-allowedShown)
		}
		return out
	}
	var parts []string
	if s := span(n.Minimum, n.Maximum, ""); s != "" {
		parts = append(parts, s)
	}
	if s := span(floatOf(n.MinItems), floatOf(n.MaxItems), " items"); s != "" {
		parts = append(parts, s)
	}
	if s := span(floatOf(n.MinLength), floatOf(n.MaxLength), " characters"); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// span is "lo to hi", "at least lo" or "up to hi", with unit after it.
func span(lo, hi *float64, unit string) string {
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	switch {
	case lo != nil && hi != nil:
		return num(*lo) + " to " + num(*hi) + unit
	case lo != nil:
		return "at least " + num(*lo) + unit
	case hi != nil:
		return "up to " + num(*hi) + unit
	}
	return ""
}

func floatOf(n *int) *float64 {
	if n == nil {
		return nil
	}
	f := float64(*n)
	return &f
}

// jobCommands are jobs get, cancel and result. get prints the job for a
// reader (jobView), the record with --json; result always prints JSON, and
// its --json is accepted so that every command a script calls takes it.
func (r *userRun) jobCommands() []*cobra.Command {
	var web, getJSON, cancelJSON, resultJSON bool
	get := &cobra.Command{
		Use:   "get JOB",
		Short: "one job: status, progress, credits, times and error; --json the record, --web its page",
		Args:  oneArg("JOB"),
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
			if getJSON {
				return r.printJSON(j)
			}
			return jobView(r.stdout, j)
		},
	}
	get.Flags().BoolVar(&web, "web", false, "print the job's page in the account panel and open it in a browser")
	get.Flags().BoolVar(&getJSON, "json", false, "print the job's record as one JSON object")
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

// versionCmd prints the CLI's version line (versionLine).
func (r *userRun) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use: "version", Short: "the CLI's version and commit", Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(r.stdout, "taskplatform", buildVersion())
			return nil
		},
	}
}

// buildVersion is the running binary's version (versionLine).
func buildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(bi)
}

// versionLine is the module version and the commit the binary was built
// from, as the Go toolchain stamps them (vcs.revision, vcs.time,
// vcs.modified): "v1.2.0 (commit 0123abcd4567, 2026-11-28, modified)".
// A build without that stamp (go run, a test binary) says so.
func versionLine(bi *debug.BuildInfo) string {
	if bi == nil {
		return "(devel) (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v + " (no commit recorded: built outside its git checkout or with -buildvcs=false)"
	}
	parts := []string{"commit " + rev[:min(12, len(rev))]}
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		parts = append(parts, t.UTC().Format(time.DateOnly))
	}
	if modified {
		parts = append(parts, "modified")
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
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
