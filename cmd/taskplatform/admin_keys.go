package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// keyCreate is `admin key create`: it prints the new key, the only time its
// secret is shown.
func (r *adminRun) keyCreate() *cobra.Command {
	var user, name, scopes, expires string
	return r.command(
		"create --user E [--name N] [--scopes s1,s2] [--expires-at T]",
		"create an API key; prints the key",
		func(f *pflag.FlagSet) {
			f.StringVar(&user, "user", "", "account email (required)")
			f.StringVar(&name, "name", "", fmt.Sprintf("a label for the key, at most %d characters", models.MaxKeyNameLen))
			f.StringVar(
				&scopes,
				"scopes",
				"",
				"comma-separated scopes of "+strings.Join(models.AllScopes, ",")+" (default all)",
			)
			f.StringVar(&expires, "expires-at", "", "when the key expires, RFC 3339 (default never)")
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(user); err != nil {
				return "", err
			}
			exp, err := parseTime(expires, time.Now().UTC())
			if err != nil {
				return "", err
			}
			if name, err = models.KeyName(name); err != nil {
				return "", &usageError{fmt.Sprintf("--name: at most %d characters", models.MaxKeyNameLen)}
			}
			var sc []string
			if scopes != "" {
				sc = strings.Split(scopes, ",")
				for _, s := range sc {
					if !slices.Contains(models.AllScopes, s) {
						return "", &usageError{
							fmt.Sprintf(
								"--scopes: unknown scope %q (known: %s)",
								s,
								strings.Join(models.AllScopes, ","),
							),
						}
					}
				}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			u, err := models.UserByEmail(ctx, db, user)
			if err != nil {
				return "", err
			}
			_, secret, err := models.CreateNamedKey(ctx, db, u.ID, name, sc, exp, api.CurrentVersion)
			if errors.Is(err, models.ErrTooManyKeys) {
				err = fmt.Errorf("%w (%d, limits.api_keys.max_per_account): revoke a key first, or roll one",
					err, contract.DefaultLimits().APIKeys.MaxPerAccount)
			}
			return secret, err
		})
}

// keyRoll is `admin key roll`: it prints the successor key.
func (r *adminRun) keyRoll() *cobra.Command {
	var (
		keyID string
		grace int64
	)
	return r.command("roll --key-id key_… --grace-period-seconds N", "replace a key; prints the new key",
		func(f *pflag.FlagSet) {
			f.StringVar(&keyID, "key-id", "", "the key to replace, key_… (required)")
			f.Int64Var(&grace, "grace-period-seconds", 0, "seconds the old key stays valid")
		},
		func(ctx context.Context) (string, error) {
			if keyID == "" || grace < 0 {
				return "", &usageError{"--key-id and a non-negative --grace-period-seconds are required"}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			_, secret, err := models.RollKey(
				ctx,
				db,
				keyID,
				time.Duration(grace)*time.Second,
				time.Now().UTC(),
				api.CurrentVersion,
			)
			return secret, err
		})
}

// keyRevoke is `admin key revoke`: it prints the key id.
func (r *adminRun) keyRevoke() *cobra.Command {
	var keyID string
	return r.command("revoke --key-id key_…", "revoke a key at once; prints its id",
		func(f *pflag.FlagSet) {
			f.StringVar(&keyID, "key-id", "", "the key to revoke, key_… (required)")
		},
		func(ctx context.Context) (string, error) {
			if keyID == "" {
				return "", &usageError{"--key-id is required"}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			if err := models.RevokeKey(ctx, db, keyID, time.Now().UTC()); err != nil {
				return "", err
			}
			return keyID, nil
		})
}

// keyList is `admin key list`: one line per key of the account, oldest
// first, tab-separated: id, prefix, scopes, expiry (or never), state
// (active, expired or revoked) and name. It never prints a secret: rows hold none.
func (r *adminRun) keyList() *cobra.Command {
	var user string
	return r.command("list --user E", "list an account's keys: id, prefix, scopes, expiry, state, name",
		func(f *pflag.FlagSet) {
			f.StringVar(&user, "user", "", "account email (required)")
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(user); err != nil {
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
			keys, err := models.KeysOfUser(ctx, db, u.ID)
			if err != nil {
				return "", err
			}
			now := time.Now()
			lines := make([]string, len(keys))
			for i, k := range keys {
				lines[i] = strings.Join([]string{k.ID, k.Hint, k.Scopes, keyExpiry(k), keyState(k, now), k.Name}, "\t")
			}
			return strings.Join(lines, "\n"), nil
		})
}

// keyExpiry is when a key expires, RFC 3339, or never.
func keyExpiry(k models.APIKey) string {
	if k.ExpiresAt == nil {
		return "never"
	}
	return k.ExpiresAt.UTC().Format(time.RFC3339)
}

// keyState is revoked, expired or active.
func keyState(k models.APIKey, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return "expired"
	}
	return "active"
}
