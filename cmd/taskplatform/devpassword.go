package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// seedDevPassword makes sure the dev account can sign in to the panel and
// returns its password, kept in the data dir so every start prints the
// same one.
func seedDevPassword(ctx context.Context, db *gorm.DB, dataDir string) (string, error) {
	u, err := models.UserByEmail(ctx, db, devEmail)
	if err != nil {
		return "", err
	}
	file := filepath.Join(dataDir, "dev-password")
	raw, err := os.ReadFile(file)
	password := strings.TrimSpace(string(raw))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if len(password) < models.MinPasswordLength {
		b := make([]byte, 12)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		password = base64.RawURLEncoding.EncodeToString(b)
		if err := os.WriteFile(file, []byte(password+"\n"), 0o600); err != nil {
			return "", err
		}
	}
	if models.PasswordMatches(u.PasswordHash, password) {
		return password, nil
	}
	return password, models.SetPassword(ctx, db, u.ID, password)
}
