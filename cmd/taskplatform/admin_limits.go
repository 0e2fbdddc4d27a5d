package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// limitFlags are the flags that name one spend limit: the account, an
// optional key of it, the period and the credit type.
type limitFlags struct {
	user, keyID, period, ctype string
}

func (l *limitFlags) add(f *pflag.FlagSet) {
	f.StringVar(&l.user, "user", "", "account email (required)")
	f.StringVar(&l.keyID, "key-id", "", "an API key of the account, key_… (default: the account's own limit)")
	f.StringVar(&l.period, "period", "", "the period the limit counts, UTC: "+strings.Join(contract.SpendPeriods, " or ")+
		" (required)")
	f.StringVar(&l.ctype, "type", contract.CreditService, "credit type: "+strings.Join(contract.CreditTypes, " or "))
}

// check validates the flags and reads the account.
func (l *limitFlags) check(ctx context.Context, r *adminRun) (*models.User, error) {
	if err := requireUser(l.user); err != nil {
		return nil, err
	}
	err := validation.Validate(l.period, validation.Required, validation.In(anys(contract.SpendPeriods)...))
	if err != nil {
		return nil, &usageError{"--period must be one of " + strings.Join(contract.SpendPeriods, ", ")}
	}
	if err := validation.Validate(l.ctype, validation.In(anys(contract.CreditTypes)...)); err != nil {
		return nil, &usageError{"--type must be one of " + strings.Join(contract.CreditTypes, ", ")}
	}
	db, err := r.database(ctx)
	if err != nil {
		return nil, err
	}
	return models.UserByEmail(ctx, db, l.user)
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// limitSet is `admin limit set`: it prints the limit's id.
func (r *adminRun) limitSet() *cobra.Command {
	var (
		l       limitFlags
		credits int64
	)
	return r.command("set --user E [--key-id key_…] --period day|month --credits N [--type T]",
		"set an account's or a key's spend limit per day or month; prints its id",
		func(f *pflag.FlagSet) {
			l.add(f)
			f.Int64Var(&credits, "credits", -1, "the most credits the period may hold or be charged, 0 or more (required)")
		},
		func(ctx context.Context) (string, error) {
			u, err := l.check(ctx, r)
			if err != nil {
				return "", err
			}
			if credits < 0 {
				return "", &usageError{"--credits (0 or more) is required"}
			}
			limit, err := models.SetSpendLimit(ctx, r.db, models.SpendLimit{UserID: u.ID, APIKeyID: l.keyID,
				CreditType: l.ctype, Period: l.period, Credits: credits})
			if errors.Is(err, models.ErrNotFound) {
				return "", fmt.Errorf("--key-id %s is not a key of %s: %w", l.keyID, l.user, models.ErrNotFound)
			}
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("limit_%d", limit.ID), nil
		})
}

// limitClear is `admin limit clear`: it removes a limit and prints its
// scope, period and type.
func (r *adminRun) limitClear() *cobra.Command {
	var l limitFlags
	return r.command("clear --user E [--key-id key_…] --period day|month [--type T]",
		"remove an account's or a key's spend limit; prints what it removed",
		l.add,
		func(ctx context.Context) (string, error) {
			u, err := l.check(ctx, r)
			if err != nil {
				return "", err
			}
			found, err := models.ClearSpendLimit(ctx, r.db, u.ID, l.keyID, l.ctype, l.period)
			if err != nil {
				return "", err
			}
			scope := cmp.Or(l.keyID, contract.SpendAccount)
			if !found {
				return "", fmt.Errorf("no %s %s limit of %s is set for %s: %w", l.period, l.ctype, scope, l.user,
					models.ErrNotFound)
			}
			return strings.Join([]string{scope, l.period, l.ctype}, "\t"), nil
		})
}

// limitList is `admin limit list`: one line per limit of the account,
// tab-separated: scope (account or the key id), period, credit type,
// limit, spent in the current period, and when the period resets.
func (r *adminRun) limitList() *cobra.Command {
	var user string
	return r.command("list --user E", "list an account's spend limits: scope, period, type, limit, spent, resets at",
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
			limits, err := models.SpendLimits(ctx, db, u.ID, time.Now())
			if err != nil {
				return "", err
			}
			lines := make([]string, len(limits))
			for i, l := range limits {
				lines[i] = strings.Join([]string{cmp.Or(l.APIKeyID, contract.SpendAccount), l.Period, l.CreditType,
					fmt.Sprint(l.Credits), fmt.Sprint(l.Spent), l.ResetsAt.UTC().Format(time.RFC3339)}, "\t")
			}
			return strings.Join(lines, "\n"), nil
		})
}
