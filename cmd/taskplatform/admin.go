package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/go-ozzo/ozzo-validation/v4/is"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
)

const adminUsage = `usage:
  taskplatform admin user create --email E [--credits N] [--plan P]
  taskplatform admin credits grant --user E --credits N [--type service_credits|model_credits] [--expires-at T]
  taskplatform admin key create --user E [--scopes s1,s2] [--expires-at T]
  taskplatform admin key roll --key-id key_… --grace-period-seconds N
  taskplatform admin key revoke --key-id key_…
  taskplatform admin webhook add --user E --url U [--events e1,e2]
  taskplatform admin webhook ping --endpoint-id whe_…        (a signed test event, through the running workers)
  taskplatform admin webhook replay --delivery-id whd_…      (the stored body again: new delivery id, same event id)
  taskplatform admin webhook enable --endpoint-id whe_…      (re-enable; resets the failure count)
Each prints one line on stdout: the id or the key.`

// runAdmin runs one admin command against the same database as the server.
func runAdmin(ctx context.Context, cfg config, args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, adminUsage)
		return 2
	}
	db, err := models.Open(ctx, models.OpenConfig{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err == nil {
		defer models.Close(db)
		if cfg.DatabaseURL == "" {
			err = models.Migrate(ctx, db)
		} else {
			err = models.CheckSchema(ctx, db)
		}
	}
	if err == nil {
		var line string
		if cmd := args[0] + " " + args[1]; cmd == "webhook ping" || cmd == "webhook replay" {
			line, err = adminDeliver(ctx, cfg, db, cmd, args[2:], os.Stderr)
		} else {
			line, err = admin(ctx, db, cfg.AllowPrivateURLs, args[0]+" "+args[1], args[2:], os.Stderr)
		}
		if err == nil {
			fmt.Println(line)
			return 0
		}
	}
	var usage *usageError
	if errors.As(err, &usage) {
		fmt.Fprintln(os.Stderr, "taskplatform admin:", err)
		fmt.Fprintln(os.Stderr, adminUsage)
		return 2
	}
	fmt.Fprintln(os.Stderr, "taskplatform admin:", err)
	return 1
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func parseTime(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, &usageError{"--expires-at must be RFC 3339, e.g. 2027-01-31T00:00:00Z"}
	}
	t = t.UTC()
	return &t, nil
}

// admin runs one command and returns the line to print. allowPrivate lets
// webhook URLs name private addresses (TP_ALLOW_PRIVATE_URLS, dev/test).
func admin(ctx context.Context, db *gorm.DB, allowPrivate bool, cmd string, args []string, stderr io.Writer) (string, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "account email")
	user := fs.String("user", "", "account email")
	credits := fs.Int64("credits", 0, "credits")
	plan := fs.String("plan", models.PlanStandard, "plan")
	ctype := fs.String("type", models.CreditService, "credit type")
	expires := fs.String("expires-at", "", "RFC 3339 time")
	scopes := fs.String("scopes", "", "comma-separated scopes")
	keyID := fs.String("key-id", "", "key id")
	endpointID := fs.String("endpoint-id", "", "webhook endpoint id")
	grace := fs.Int64("grace-period-seconds", 0, "seconds the old key stays valid")
	url := fs.String("url", "", "webhook URL")
	events := fs.String("events", "job.succeeded,job.failed,job.cancelled", "comma-separated events")
	if err := fs.Parse(args); err != nil {
		return "", &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return "", &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	exp, err := parseTime(*expires)
	if err != nil {
		return "", err
	}
	switch cmd {
	case "credits grant", "key create", "webhook add":
		if *user == "" {
			return "", &usageError{"--user (the account email) is required"}
		}
	}
	now := time.Now().UTC()
	if exp != nil && !exp.After(now) {
		return "", &usageError{"--expires-at must be in the future"}
	}
	switch cmd {
	case "user create":
		if err := validation.Validate(*email, validation.Required, is.EmailFormat); err != nil {
			return "", &usageError{"--email " + err.Error()}
		}
		if _, known := models.Plans[*plan]; !known {
			return "", &usageError{fmt.Sprintf("--plan must be one of %s", strings.Join(slices.Sorted(maps.Keys(models.Plans)), ", "))}
		}
		if *credits < 0 {
			return "", &usageError{"--credits must not be negative"}
		}
		u, err := models.CreateUser(ctx, db, *email, *plan)
		if err != nil {
			return "", err
		}
		if *credits > 0 {
			if _, err := models.Grant(ctx, db, u.ID, models.CreditService, *credits, nil, "admin user create"); err != nil {
				return "", err
			}
		}
		return fmt.Sprint(u.ID), nil
	case "credits grant":
		if err := validation.Validate(*ctype, validation.In(models.CreditService, models.CreditModel)); err != nil {
			return "", &usageError{"--type " + err.Error()}
		}
		if *credits <= 0 {
			return "", &usageError{"--credits must be positive"}
		}
		u, err := models.UserByEmail(ctx, db, *user)
		if err != nil {
			return "", err
		}
		b, err := models.Grant(ctx, db, u.ID, *ctype, *credits, exp, "admin grant")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("batch_%d", b.ID), nil
	case "key create":
		u, err := models.UserByEmail(ctx, db, *user)
		if err != nil {
			return "", err
		}
		var sc []string
		if *scopes != "" {
			sc = strings.Split(*scopes, ",")
			for _, s := range sc {
				if err := validation.Validate(s, validation.In(anySlice(models.AllScopes)...)); err != nil {
					return "", &usageError{fmt.Sprintf("--scopes: unknown scope %q (known: %s)", s, strings.Join(models.AllScopes, ","))}
				}
			}
		}
		_, secret, err := models.CreateKey(ctx, db, u.ID, sc, exp, api.CurrentVersion)
		return secret, err
	case "key roll":
		if *keyID == "" || *grace < 0 {
			return "", &usageError{"--key-id and a non-negative --grace-period-seconds are required"}
		}
		_, secret, err := models.RollKey(ctx, db, *keyID, time.Duration(*grace)*time.Second, now, api.CurrentVersion)
		return secret, err
	case "key revoke":
		if *keyID == "" {
			return "", &usageError{"--key-id is required"}
		}
		if err := models.RevokeKey(ctx, db, *keyID, now); err != nil {
			return "", err
		}
		return *keyID, nil
	case "webhook enable":
		if *endpointID == "" {
			return "", &usageError{"--endpoint-id is required"}
		}
		return *endpointID, models.EnableEndpoint(ctx, db, *endpointID)
	case "webhook add":
		if err := validation.Validate(*url, validation.Required, is.URL); err != nil || !strings.HasPrefix(*url, "https://") {
			return "", &usageError{"--url must be an https:// URL"}
		}
		if err := outbound.CheckURL(ctx, *url, allowPrivate); err != nil {
			return "", &usageError{"--url must resolve to public addresses only (" + err.Error() + ")"}
		}
		subscribed, err := webhookEvents(*events)
		if err != nil {
			return "", err
		}
		u, err := models.UserByEmail(ctx, db, *user)
		if err != nil {
			return "", err
		}
		ep := &models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: u.ID, URL: *url, Events: subscribed}
		if err := db.WithContext(ctx).Create(ep).Error; err != nil {
			return "", err
		}
		return ep.ID, nil
	}
	return "", &usageError{"unknown admin command " + cmd}
}

// webhookEvents checks a comma-separated --events list against the
// webhook_event vocabulary and returns it without blanks or repeats.
func webhookEvents(list string) (string, error) {
	known := tasks.VocabValues("webhook_event")
	var out []string
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
			continue
		case !slices.Contains(known, e):
			return "", &usageError{fmt.Sprintf("--events: unknown event %q (known: %s)", e, strings.Join(known, ","))}
		case !slices.Contains(out, e):
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return "", &usageError{"--events must name at least one of " + strings.Join(known, ",")}
	}
	return strings.Join(out, ","), nil
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
