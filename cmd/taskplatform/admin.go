package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// adminRun is one run of the admin commands: the configuration, how it
// reaches the database and what it prints on success.
type adminRun struct {
	cfg  config
	open func(context.Context) (*gorm.DB, error)
	db   *gorm.DB
	out  string
	// stdin is where --password-stdin reads; nil reads nothing.
	stdin io.Reader
}

// adminMain runs the admin command in args, printing its line on stdout and
// any error on stderr: exit 2 for a usage error (with the command's usage),
// 1 for any other.
func adminMain(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	r := &adminRun{cfg: cfg, stdin: os.Stdin}
	r.open = r.openConfigured
	defer func() {
		if r.db != nil {
			models.Close(r.db)
		}
	}()
	cmd, err := r.execute(ctx, args, stdout, stderr)
	return r.report(cmd, err, stdout, stderr)
}

// report ends an admin command: its line on stdout on success; otherwise
// the error on stderr, with the usage after a usage error (the overview
// for a group): exit 2 for a usage error, 1 for any other.
func (r *adminRun) report(cmd *cobra.Command, err error, stdout, stderr io.Writer) int {
	if err == nil {
		if r.out != "" {
			fmt.Fprintln(stdout, r.out)
		}
		return 0
	}
	fmt.Fprintln(stderr, "taskplatform admin:", err)
	var usage *usageError
	if !errors.As(err, &usage) {
		return 1
	}
	if cmd.HasSubCommands() {
		fmt.Fprint(stderr, adminOverview(r.adminRoot(cmd)))
	} else {
		fmt.Fprint(stderr, cmd.UsageString())
	}
	return 2
}

// adminRoot is the admin command above c (c's root when admin is run
// alone).
func (r *adminRun) adminRoot(c *cobra.Command) *cobra.Command {
	for c.HasParent() && c.Name() != "admin" {
		c = c.Parent()
	}
	return c
}

// admin runs one command against db and returns what it prints.
// allowPrivate lets webhook URLs name private addresses
// (TP_ALLOW_PRIVATE_URLS, dev/test).
func admin(
	ctx context.Context,
	db *gorm.DB,
	allowPrivate bool,
	cmd string,
	args []string,
	stderr io.Writer,
) (string, error) {
	r := &adminRun{
		cfg:  config{AllowPrivateURLs: allowPrivate},
		open: func(context.Context) (*gorm.DB, error) { return db, nil },
	}
	if _, err := r.execute(ctx, append(strings.Fields(cmd), args...), stderr, stderr); err != nil {
		return "", err
	}
	return r.out, nil
}

// execute parses args with the admin tree and runs the command they name; it
// returns the command reached, for its usage.
func (r *adminRun) execute(ctx context.Context, args []string, stdout, stderr io.Writer) (*cobra.Command, error) {
	root := r.tree()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContextC(ctx)
}

// The admin commands are listed in the order of the design's contract.
func init() { cobra.EnableCommandSorting = false }

// tree is the admin command tree; each command has its own flags.
func (r *adminRun) tree() *cobra.Command {
	root := group(
		"admin",
		"accounts, credits, keys, spend limits and webhooks (the stand-in for the account panel)",
		group("user", "accounts", r.userCreate(), r.userPassword(), r.userPinVersion()),
		group("credits", "credit grants", r.creditsGrant()),
		group("key", "API keys", r.keyCreate(), r.keyRoll(), r.keyRevoke(), r.keyList()),
		group("limit", "spend limits per day and month", r.limitSet(), r.limitClear(), r.limitList()),
		group(
			"webhook",
			"webhook endpoints and deliveries",
			r.webhookAdd(),
			r.webhookPing(),
			r.webhookReplay(),
			r.webhookEnable(),
		),
	)
	root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "taskplatform admin"}
	// A group's help is the overview alone (cobra would add its own usage
	// after it); a command's is cobra's.
	defaultHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c.HasSubCommands() {
			fmt.Fprint(c.OutOrStdout(), adminOverview(root))
			return
		}
		defaultHelp(c, args)
	})
	root.SilenceErrors = true
	root.SilenceUsage = true
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	return root
}

// group is a command that only holds commands: run alone, or with a word
// that names none of them, it is a usage error.
func group(name, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   name,
		Short: short,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())}
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error {
			var names []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return &usageError{
				fmt.Sprintf("missing command after %q: one of %s", c.CommandPath(), strings.Join(names, ", ")),
			}
		},
	}
	c.AddCommand(subs...)
	return c
}

// command is an admin command with its own flags (set by flags) whose run
// returns what it prints on success.
func (r *adminRun) command(
	use, short string,
	flags func(*pflag.FlagSet),
	run func(context.Context) (string, error),
) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{fmt.Sprintf("unexpected argument %q", args[0])}
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := run(c.Context())
			if err != nil {
				return err
			}
			r.out = out
			return nil
		},
	}
	c.Flags().SortFlags = false
	flags(c.Flags())
	return c
}

// adminOverview lists every admin command with its arguments.
func adminOverview(root *cobra.Command) string {
	var leaves []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			switch {
			case sub.Name() == "help":
			case sub.HasSubCommands():
				walk(sub)
			default:
				leaves = append(leaves, sub)
			}
		}
	}
	walk(root)
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range leaves {
		fmt.Fprintf(&b, "  %s\n", strings.TrimSuffix(c.UseLine(), " [flags]"))
	}
	b.WriteString("Each prints one line on stdout, the id or the key (key list: one line per key).\n")
	b.WriteString("Run \"taskplatform admin <command> --help\" for what a command does and its flags.\n")
	return b.String()
}

// database opens the database on first use. Commands check their input
// first, so a usage error never touches one.
func (r *adminRun) database(ctx context.Context) (*gorm.DB, error) {
	if r.db == nil {
		db, err := r.open(ctx)
		if err != nil {
			return nil, err
		}
		r.db = db
	}
	return r.db, nil
}

// openConfigured opens the server's database: PostgreSQL at
// TP_DATABASE_URL, whose schema must be migrated, else the dev SQLite file
// under TP_DATA_DIR, which must exist (admin never creates one) and is
// migrated as dev does.
func (r *adminRun) openConfigured(ctx context.Context) (*gorm.DB, error) {
	if r.cfg.DatabaseURL == "" {
		path := absPath(models.SQLitePath(r.cfg.DataDir))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf(
				"no database at %s (TP_DATA_DIR, with TP_DATABASE_URL unset): run `taskplatform dev` or `taskplatform migrate` "+
					"first",
				path,
			)
		}
	}
	db, err := models.Open(ctx, models.OpenConfig{URL: r.cfg.DatabaseURL, DataDir: r.cfg.DataDir})
	if err != nil {
		return nil, err
	}
	if r.cfg.DatabaseURL == "" {
		err = models.Migrate(ctx, db)
	} else {
		err = models.CheckSchema(ctx, db)
	}
	if err != nil {
		models.Close(db)
		return nil, err
	}
	return db, nil
}

// usageError is input the command refuses: exit 2, with the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseTime reads an optional --expires-at, which must be RFC 3339 and in
// the future.
func parseTime(s string, now time.Time) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, &usageError{"--expires-at must be RFC 3339, e.g. 2027-01-31T00:00:00Z"}
	}
	t = t.UTC()
	if !t.After(now) {
		return nil, &usageError{"--expires-at must be in the future"}
	}
	return &t, nil
}

// requireUser refuses an empty --user.
func requireUser(user string) error {
	if user == "" {
		return &usageError{"--user (the account email) is required"}
	}
	return nil
}
