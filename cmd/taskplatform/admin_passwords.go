package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taskplatform/taskplatform/models"
)

// userPassword is `admin user password`: it sets an account's panel
// password from stdin, signs out its sessions and prints its id.
func (r *adminRun) userPassword() *cobra.Command {
	var email string
	return r.command(
		"password --email E",
		"set an account's panel password, read from stdin; signs out its sessions; prints its id",
		func(f *pflag.FlagSet) {
			f.StringVar(&email, "email", "", "account email (required)")
		},
		func(ctx context.Context) (string, error) {
			if err := requireUser(email); err != nil {
				return "", err
			}
			password, err := r.readPassword()
			if err != nil {
				return "", err
			}
			db, err := r.database(ctx)
			if err != nil {
				return "", err
			}
			u, err := models.UserByEmail(ctx, db, email)
			if err != nil {
				return "", err
			}
			if err := models.SetPassword(ctx, db, u.ID, password); err != nil {
				return "", err
			}
			return fmt.Sprint(u.ID), nil
		},
	)
}

// readPassword reads the password from the first line of stdin, checked
// for length before any database is touched.
func (r *adminRun) readPassword() (string, error) {
	if r.stdin == nil {
		return "", &usageError{"the password is read from stdin, and none is attached"}
	}
	line, err := bufio.NewReader(r.stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", &usageError{"the password is read from the first line of stdin, which is empty"}
	}
	password := strings.TrimRight(line, "\r\n")
	if _, err := models.HashPassword(password); errors.Is(err, models.ErrPasswordTooShort) {
		return "", &usageError{"password: " + err.Error()}
	}
	return password, nil
}
