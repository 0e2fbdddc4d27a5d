package main

import (
	"context"
	"fmt"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/go-ozzo/ozzo-validation/v4/is"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// userCreate is `admin user create`: it prints the new user's id.
func (r *adminRun) userCreate() *cobra.Command {
	var (
		email, plan   string
		credits       int64
		passwordStdin bool
	)
	return r.command("create --email E [--credits N] [--plan P] [--password-stdin]", "create an account; prints its id",
		func(f *pflag.FlagSet) {
			f.StringVar(&email, "email", "", "account email (required)")
			f.Int64Var(&credits, "credits", 0, "service credits granted at once")
			f.StringVar(&plan, "plan", models.PlanStandard, "plan: "+models.PlanList())
			f.BoolVar(&passwordStdin, "password-stdin", false, "read the panel password from the first line of stdin")
		},
		func(ctx context.Context) (string, error) {
			if err := validation.Validate(email, validation.Required, is.EmailFormat); err != nil {
				return "", &usageError{"--email " + err.Error()}
			}
			if _, known := models.Plans[plan]; !known {
				return "", &usageError{"--plan must be one of " + models.PlanList()}
			}
			if credits < 0 {
				return "", &usageError{"--credits must not be negative"}
			}
			var password string
			if passwordStdin {
				var err error
				if password, err = r.readPassword(); err != nil {
					return "", err
				}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			u, err := models.CreateUser(ctx, db, email, plan)
			if err != nil {
				return "", err
			}
			if passwordStdin {
				if err := models.SetPassword(ctx, db, u.ID, password); err != nil {
					return "", err
				}
			}
			if credits > 0 {
				if _, err := models.Grant(ctx, db, u.ID, contract.CreditService, credits, nil, "admin user create"); err != nil {
					return "", err
				}
			}
			return fmt.Sprint(u.ID), nil
		})
}

// creditsGrant is `admin credits grant`: it prints the batch id.
func (r *adminRun) creditsGrant() *cobra.Command {
	var (
		user, ctype, expires string
		credits              int64
	)
	return r.command("grant --user E --credits N [--type T] [--expires-at T]", "grant credits; prints the batch id",
		func(f *pflag.FlagSet) {
			f.StringVar(&user, "user", "", "account email (required)")
			f.Int64Var(&credits, "credits", 0, "credits to grant, more than 0 (required)")
			f.StringVar(
				&ctype,
				"type",
				contract.CreditService,
				"credit type: "+contract.CreditService+" or "+contract.CreditModel,
			)
			f.StringVar(&expires, "expires-at", "", "when the credits expire, RFC 3339 (default never)")
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(user); err != nil {
				return "", err
			}
			exp, err := parseTime(expires, time.Now().UTC())
			if err != nil {
				return "", err
			}
			if err := validation.Validate(ctype, validation.In(contract.CreditService, contract.CreditModel)); err != nil {
				return "", &usageError{"--type " + err.Error()}
			}
			if credits <= 0 {
				return "", &usageError{"--credits must be positive"}
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			u, err := models.UserByEmail(ctx, db, user)
			if err != nil {
				return "", err
			}
			b, err := models.Grant(ctx, db, u.ID, ctype, credits, exp, "admin grant")
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("batch_%d", b.ID), nil
		})
}
