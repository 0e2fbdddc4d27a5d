package main

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// runAdminLine runs one admin command; args is the command line after "admin".
func runAdminLine(t *testing.T, db *gorm.DB, line string) (string, error) {
	t.Helper()
	f := strings.Fields(line)
	require.GreaterOrEqual(t, len(f), 2, "admin needs a command")
	return admin(context.Background(), db, false, f[0]+" "+f[1], f[2:], io.Discard)
}

// adminOK runs a command that must succeed and print one line.
func adminOK(t *testing.T, db *gorm.DB, line string) string {
	t.Helper()
	out, err := runAdminLine(t, db, line)
	require.NoError(t, err, "admin %s", line)
	require.NotEmpty(t, out)
	require.NotContains(t, out, "\n", "one line")
	return out
}

func TestAdminCommands(t *testing.T) {
	ctx := context.Background()
	future := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Second)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		// user create prints the user id and grants the credits.
		out := adminOK(t, db, "user create --email Ops@Example.com --credits 100 --plan app_only")
		id, err := strconv.ParseUint(out, 10, 64)
		require.NoError(t, err, "user id: %q", out)
		u, err := models.UserByID(ctx, db, id)
		require.NoError(t, err)
		require.Equal(t, "ops@example.com", u.Email)
		require.Equal(t, models.PlanAppOnly, u.Plan)

		// credits grant prints the batch id.
		out = adminOK(
			t,
			db,
			"credits grant --user ops@example.com --credits 25 --type model_credits --expires-at "+future.Format(
				time.RFC3339,
			),
		)
		require.True(t, strings.HasPrefix(out, "batch_"), "batch id: %q", out)
		bals, err := models.Balances(ctx, db, u.ID, time.Now().UTC())
		require.NoError(t, err)
		require.EqualValues(t, 100, bals[0].Remaining)
		require.EqualValues(t, 25, bals[1].Remaining)
		require.True(t, future.Equal(*bals[1].Expiring[0].At))

		// key create prints a working key with the scopes asked for.
		key := adminOK(t, db, "key create --user ops@example.com --scopes jobs:read,account:read")
		require.True(t, strings.HasPrefix(key, models.KeyPrefix), "key: %q", key)
		k, ku, err := models.SecretKeyAuth(ctx, db, key, time.Now())
		require.NoError(t, err)
		require.Equal(t, u.ID, ku.ID)
		require.True(t, k.HasScope(models.ScopeJobsRead))
		require.False(t, k.HasScope(models.ScopeTasksRun))

		// key roll prints a new key; the old one keeps its grace period.
		rolled := adminOK(t, db, "key roll --key-id "+k.ID+" --grace-period-seconds 3600")
		require.True(t, strings.HasPrefix(rolled, models.KeyPrefix))
		require.NotEqual(t, key, rolled)
		nk, _, err := models.SecretKeyAuth(ctx, db, rolled, time.Now())
		require.NoError(t, err)
		_, _, err = models.SecretKeyAuth(ctx, db, key, time.Now())
		require.NoError(t, err, "within the grace period")
		_, _, err = models.SecretKeyAuth(ctx, db, key, time.Now().Add(time.Hour+time.Minute))
		require.ErrorIs(t, err, models.ErrKeyInvalid, "after the grace period")

		// key revoke prints the key id; the key stops at once.
		require.Equal(t, nk.ID, adminOK(t, db, "key revoke --key-id "+nk.ID))
		_, _, err = models.SecretKeyAuth(ctx, db, rolled, time.Now())
		require.ErrorIs(t, err, models.ErrKeyInvalid)

		// webhook add prints the endpoint id.
		out = adminOK(t, db, "webhook add --user ops@example.com --url https://93.184.216.34/tp --events job.succeeded")
		require.True(t, strings.HasPrefix(out, "whe_"), "endpoint id: %q", out)
		var ep models.WebhookEndpoint
		require.NoError(t, db.Take(&ep, "id = ?", out).Error)
		require.Equal(t, u.ID, ep.UserID)
		require.Equal(t, "https://93.184.216.34/tp", ep.URL)
		require.Equal(t, "job.succeeded", ep.Events)
	})
}

func TestAdminBadInput(t *testing.T) {
	past := time.Now().UTC().Add(-time.Hour).Format(time.RFC3339)
	tests := []struct {
		name, line string
	}{
		{"user create without email", "user create"},
		{"user create bad email", "user create --email not-an-email"},
		{"user create bad plan", "user create --email a@example.com --plan gold"},
		{"user create negative credits", "user create --email a@example.com --credits -1"},
		{"unknown flag", "user create --email a@example.com --nope"},
		{"stray argument", "user create --email a@example.com extra"},
		{"credits grant without user", "credits grant --credits 5"},
		{"credits grant zero credits", "credits grant --user a@example.com --credits 0"},
		{"credits grant bad type", "credits grant --user a@example.com --credits 5 --type gold"},
		{"credits grant bad time", "credits grant --user a@example.com --credits 5 --expires-at tomorrow"},
		{"credits grant past time", "credits grant --user a@example.com --credits 5 --expires-at " + past},
		{"credits grant not a number", "credits grant --user a@example.com --credits five"},
		{"key create without user", "key create"},
		{"key create bad scope", "key create --user a@example.com --scopes jobs:read,root"},
		{"key create past expiry", "key create --user a@example.com --expires-at " + past},
		{"key roll without key id", "key roll --grace-period-seconds 60"},
		{"key roll negative grace", "key roll --key-id key_x --grace-period-seconds -1"},
		{"key revoke without key id", "key revoke"},
		{"webhook add http url", "webhook add --user a@example.com --url http://hooks.example.com"},
		{"webhook add not a url", "webhook add --user a@example.com --url nope"},
		{"webhook add private address", "webhook add --user a@example.com --url https://10.1.2.3/hook"},
		{"webhook add loopback", "webhook add --user a@example.com --url https://127.0.0.1:8443/hook"},
		{"webhook add without user", "webhook add --url https://hooks.example.com"},
		{"unknown command", "user delete --email a@example.com"},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := models.CreateUser(context.Background(), db, "a@example.com", "")
		require.NoError(t, err)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				out, err := runAdminLine(t, db, tt.line)
				var usage *usageError
				require.True(t, errors.As(err, &usage), "want a usage error, got %v", err)
				require.Empty(t, out)
			})
		}
	})
}

func TestAdminErrors(t *testing.T) {
	tests := []struct {
		name, line string
		notFound   bool
	}{
		{"grant to unknown user", "credits grant --user nobody@example.com --credits 5", true},
		{"key for unknown user", "key create --user nobody@example.com", true},
		{"roll unknown key", "key roll --key-id key_unknown --grace-period-seconds 0", true},
		{"revoke unknown key", "key revoke --key-id key_unknown", true},
		{"webhook for unknown user", "webhook add --user nobody@example.com --url https://93.184.216.34/hook", true},
		{"duplicate user", "user create --email a@example.com", false},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := models.CreateUser(context.Background(), db, "a@example.com", "")
		require.NoError(t, err)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				out, err := runAdminLine(t, db, tt.line)
				require.Error(t, err)
				require.Empty(t, out)
				var usage *usageError
				require.False(t, errors.As(err, &usage), "not a usage error: %v", err)
				if tt.notFound {
					require.ErrorIs(t, err, models.ErrNotFound)
				}
			})
		}
	})
}

func TestAdminWebhookEnable(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, err := models.CreateUser(context.Background(), db, "hooks@example.com", "")
		require.NoError(t, err)
		ep := models.WebhookEndpoint{
			ID:             models.NewID("whe_"),
			UserID:         u.ID,
			URL:            "https://93.184.216.34/h",
			Events:         "job.succeeded",
			Disabled:       true,
			DisabledReason: "20 consecutive failed deliveries",
			Failures:       20,
		}
		require.NoError(t, db.Create(&ep).Error)

		require.Equal(t, ep.ID, adminOK(t, db, "webhook enable --endpoint-id "+ep.ID))
		var got models.WebhookEndpoint
		require.NoError(t, db.Take(&got, "id = ?", ep.ID).Error)
		require.False(t, got.Disabled)
		require.Empty(t, got.DisabledReason)
		require.Zero(t, got.Failures, "re-enabling resets the failure count")

		_, err = runAdminLine(t, db, "webhook enable --endpoint-id whe_nope")
		require.ErrorIs(t, err, models.ErrNotFound)
		_, err = runAdminLine(t, db, "webhook enable")
		var usage *usageError
		require.ErrorAs(t, err, &usage)
	})
}

func TestAdminWebhookAddChecksEvents(t *testing.T) {
	// Each case its own address: an account has one endpoint per address.
	add := func(i int) string {
		return "webhook add --user hooks@example.com --url https://93.184.216.34/h" + strconv.Itoa(i) + " --events "
	}
	tests := []struct {
		name, events, stored, refused string
	}{
		{"known events", "job.started,job.succeeded", "job.started,job.succeeded", ""},
		{"blanks and repeats dropped", "job.failed,job.failed,,job.cancelled", "job.failed,job.cancelled", ""},
		{"unknown event", "job.succeeded,job.done", "", `unknown event "job.done"`},
		{"wrong case", "JOB.SUCCEEDED", "", `unknown event "JOB.SUCCEEDED"`},
		{"no event", ",", "", "at least one"},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := models.CreateUser(context.Background(), db, "hooks@example.com", "")
		require.NoError(t, err)
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				out, err := runAdminLine(t, db, add(i)+tt.events)
				if tt.refused == "" {
					require.NoError(t, err)
					var ep models.WebhookEndpoint
					require.NoError(t, db.Take(&ep, "id = ?", out).Error)
					require.Equal(t, tt.stored, ep.Events)
					return
				}
				var usage *usageError
				require.ErrorAs(t, err, &usage)
				require.Contains(t, err.Error(), tt.refused)
				require.NotContains(t, err.Error(), "\n", "one line")
				require.Empty(t, out)
			})
		}
		var n int64
		require.NoError(t, db.Model(&models.WebhookEndpoint{}).Count(&n).Error)
		require.EqualValues(t, 2, n, "refused commands add no endpoint")
	})
}

func TestAdminWebhookAddUnknownEventExitsNonZero(t *testing.T) {
	r := runAdminMain(t, "webhook", "add", "--user", "nobody@example.com", "--url", "https://93.184.216.34/h",
		"--events", "job.done")
	require.NotZero(t, r.code)
}

// TestAdminHonoursTheAccountLimits: the admin commands make keys and
// endpoints through the same checks as the panel: a key beyond
// limits.api_keys.max_per_account, an endpoint beyond
// limits.webhook_endpoints.max_per_account and a second endpoint at one
// address are refused (exit 1, not a usage error), and nothing is added.
func TestAdminHonoursTheAccountLimits(t *testing.T) {
	lim := contract.DefaultLimits()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		adminOK(t, db, "user create --email full@example.com")
		for range lim.APIKeys.MaxPerAccount {
			adminOK(t, db, "key create --user full@example.com")
		}
		out, err := runAdminLine(t, db, "key create --user full@example.com")
		require.ErrorIs(t, err, models.ErrTooManyKeys)
		require.Contains(t, err.Error(), strconv.Itoa(lim.APIKeys.MaxPerAccount))
		require.Empty(t, out)

		const add = "webhook add --user full@example.com --url https://93.184.216.34/hook"
		adminOK(t, db, add+"0")
		_, err = runAdminLine(t, db, add+"0")
		var exists *models.EndpointExists
		require.ErrorAs(t, err, &exists, "one endpoint per address")
		for i := 1; i < lim.WebhookEndpoints.MaxPerAccount; i++ {
			adminOK(t, db, add+strconv.Itoa(i))
		}
		_, err = runAdminLine(t, db, add+"-more")
		require.ErrorIs(t, err, models.ErrTooManyEndpoints)
		var usage *usageError
		require.False(t, errors.As(err, &usage), "not a usage error")

		var keys, endpoints int64
		require.NoError(t, db.Model(&models.APIKey{}).Count(&keys).Error)
		require.NoError(t, db.Model(&models.WebhookEndpoint{}).Count(&endpoints).Error)
		require.EqualValues(t, lim.APIKeys.MaxPerAccount, keys)
		require.EqualValues(t, lim.WebhookEndpoints.MaxPerAccount, endpoints)
	})
}
