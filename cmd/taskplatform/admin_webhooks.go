package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/go-ozzo/ozzo-validation/v4/is"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
)

// webhookAdd is `admin webhook add`: it prints the endpoint id.
func (r *adminRun) webhookAdd() *cobra.Command {
	var user, url, events string
	return r.command("add --user E --url U [--events e1,e2]", "register a webhook endpoint; prints its id",
		func(f *pflag.FlagSet) {
			f.StringVar(&user, "user", "", "account email (required)")
			f.StringVar(&url, "url", "", "https:// URL that receives the events; public addresses only (required)")
			f.StringVar(&events, "events", "job.succeeded,job.failed,job.cancelled", "comma-separated events to send")
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(user); err != nil {
				return "", err
			}
			if err := validation.Validate(url, validation.Required, is.URL); err != nil ||
				!strings.HasPrefix(url, "https://") {
				return "", &usageError{"--url must be an https:// URL"}
			}
			if err := outbound.CheckURL(ctx, url, r.cfg.AllowPrivateURLs); err != nil {
				return "", &usageError{"--url must resolve to public addresses only (" + err.Error() + ")"}
			}
			subscribed, err := webhookEvents(events)
			if err != nil {
				return "", err
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			u, err := models.UserByEmail(ctx, db, user)
			if err != nil {
				return "", err
			}
			ep := &models.WebhookEndpoint{UserID: u.ID, URL: url, Events: subscribed}
			if err := models.CreateEndpoint(ctx, db, ep); err != nil {
				if errors.Is(err, models.ErrTooManyEndpoints) {
					err = fmt.Errorf("%w (%d, limits.webhook_endpoints.max_per_account): remove one first",
						err, contract.DefaultLimits().WebhookEndpoints.MaxPerAccount)
				}
				return "", err
			}
			return ep.ID, nil
		})
}

// webhookEnable is `admin webhook enable`: it re-enables an endpoint,
// resetting its failure count, and prints its id.
func (r *adminRun) webhookEnable() *cobra.Command {
	var id string
	return r.command("enable --endpoint-id whe_…", "re-enable an endpoint, resetting its failure count; prints its id",
		func(f *pflag.FlagSet) {
			f.StringVar(&id, "endpoint-id", "", "the endpoint, whe_… (required)")
		},
		func(ctx context.Context) (string, error) {
			if id == "" {
				return "", &usageError{"--endpoint-id is required"}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			return id, models.EnableEndpoint(ctx, db, id)
		})
}

// webhookEvents checks a comma-separated --events list against the
// webhook_event vocabulary and returns it without blanks or repeats.
func webhookEvents(list string) (string, error) {
	known := catalogue.ServiceVocabValues("webhook_event")
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
