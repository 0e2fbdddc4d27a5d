package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// userPinVersion is `admin user pin-version`: it pins the account to a
// dated contract version (what requests without Service-Version and its
// webhook bodies follow) and prints the version.
func (r *adminRun) userPinVersion() *cobra.Command {
	var user, version string
	return r.command("pin-version --user E --version YYYY-MM-DD", "pin an account's contract version; prints it",
		func(f *pflag.FlagSet) {
			f.StringVar(&user, "user", "", "account email (required)")
			f.StringVar(
				&version,
				"version",
				"",
				"a dated version: "+strings.Join(contract.Versions, ", ")+" (required)",
			)
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(user); err != nil {
				return "", err
			}
			if !slices.Contains(contract.Versions, version) {
				return "", &usageError{
					fmt.Sprintf("--version must be one of %s", strings.Join(contract.Versions, ", ")),
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
			if err := models.PinVersion(ctx, db, u.ID, version); err != nil {
				return "", err
			}
			return version, nil
		})
}
