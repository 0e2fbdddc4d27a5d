package models_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// chosenSecret is a well-formed secret of the caller's choosing: the prefix
// and 43 URL-safe base64 characters.
const chosenSecret = models.KeyPrefix + "Dev-Key_0123456789abcdefghijklmnopqrstuvwxy"

// malformedSecrets are refused before any lookup.
var malformedSecrets = []struct {
	name   string
	secret string
}{
	{"empty", ""},
	{"prefix only", models.KeyPrefix},
	{"no prefix", strings.TrimPrefix(chosenSecret, models.KeyPrefix) + "xxxx"},
	{"other prefix", "tpk-" + strings.TrimPrefix(chosenSecret, models.KeyPrefix)},
	{"upper-case prefix", strings.ToUpper(models.KeyPrefix) + strings.TrimPrefix(chosenSecret, models.KeyPrefix)},
	{"one short", chosenSecret[:len(chosenSecret)-1]},
	{"one long", chosenSecret + "a"},
	{"padding", chosenSecret[:len(chosenSecret)-1] + "="},
	{"standard base64 character", chosenSecret[:len(chosenSecret)-1] + "+"},
	{"space", chosenSecret[:len(chosenSecret)-1] + " "},
	{"leading space", " " + chosenSecret[:len(chosenSecret)-1]},
	{"non-ASCII", chosenSecret[:len(chosenSecret)-2] + "é"},
}

// apiKeyRow reads a key's row as stored, column by column.
func apiKeyRow(t *testing.T, db *gorm.DB, id string) map[string]any {
	t.Helper()
	row := map[string]any{}
	require.NoError(t, db.Table("api_keys").Where("id = ?", id).Take(&row).Error)
	require.NotEmpty(t, row)
	return row
}

// columnText is a column value as text, for searching it.
func columnText(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestCreateKeyStoresOnlyTheHash(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		k, secret, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2026-09-29")
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(secret, models.KeyPrefix), "secret %q", secret)
		require.True(t, models.WellFormedKey(secret), "secret %q", secret)
		require.True(t, strings.HasPrefix(k.ID, "key_"), "id %q", k.ID)
		require.Equal(t, u.ID, k.UserID)
		require.Equal(t, sha256Hex(secret), k.Hash)
		require.Equal(t, models.HashKey(secret), k.Hash)
		require.Equal(t, secret[:len(models.KeyPrefix)+4]+"…", k.Hint)

		row := apiKeyRow(t, db, k.ID)
		require.Equal(t, sha256Hex(secret), columnText(row["hash"]))
		random := strings.TrimPrefix(secret, models.KeyPrefix)
		for col, v := range row {
			text := columnText(v)
			require.NotContains(t, text, secret, "column %s holds the secret", col)
			require.NotContains(t, text, random, "column %s holds the secret's random part", col)
		}

		k2, secret2, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2026-09-29")
		require.NoError(t, err)
		require.NotEqual(t, secret, secret2, "every key has its own secret")
		require.NotEqual(t, k.ID, k2.ID)
		require.NotEqual(t, k.Hash, k2.Hash)
	})
}

func TestSecretKeyAuthAcceptsTheSecret(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		u := accountFor(t, db)
		later := now.Add(time.Hour)
		for name, expires := range map[string]*time.Time{"no expiry": nil, "expires later": &later} {
			t.Run(name, func(t *testing.T) {
				k, secret, err := models.CreateKey(ctx, db, u.ID, nil, expires, "2026-09-29")
				require.NoError(t, err)

				stmts := &statementCounter{Interface: logger.Discard}
				gotKey, gotUser, err := models.SecretKeyAuth(ctx, db.Session(&gorm.Session{Logger: stmts}), secret, now)
				require.NoError(t, err)
				require.EqualValues(
					t,
					1,
					stmts.n.Load(),
					"every authenticated request reads its key and user in one statement",
				)
				require.Equal(t, k.ID, gotKey.ID)
				require.Equal(t, u.ID, gotKey.UserID)
				require.Equal(t, k.Hash, gotKey.Hash)
				require.Nil(t, gotKey.RevokedAt)
				require.Equal(t, u.ID, gotUser.ID)
				require.Equal(t, u.Email, gotUser.Email)
				require.Equal(t, "2026-09-29", gotUser.ServiceVersion)
				want, err := models.UserByID(ctx, db, u.ID)
				require.NoError(t, err)
				require.Equal(t, want, gotUser, "every field of the user, read with the key in one statement")
			})
		}
	})
}

func TestSecretKeyAuthRefusesInvalidKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	type setup func(t *testing.T, db *gorm.DB, u *models.User) string
	issue := func(expires *time.Time) setup {
		return func(t *testing.T, db *gorm.DB, u *models.User) string {
			_, secret, err := models.CreateKey(ctx, db, u.ID, nil, expires, "2026-09-29")
			require.NoError(t, err)
			return secret
		}
	}
	tests := []struct {
		name   string
		secret setup
	}{
		{"unknown", func(*testing.T, *gorm.DB, *models.User) string { return chosenSecret }},
		{"one character changed", func(t *testing.T, db *gorm.DB, u *models.User) string {
			secret := issue(nil)(t, db, u)
			last := byte('A')
			if secret[len(secret)-1] == last {
				last = 'B'
			}
			return secret[:len(secret)-1] + string(last)
		}},
		{"the stored hash", func(t *testing.T, db *gorm.DB, u *models.User) string {
			return models.KeyPrefix + models.HashKey(issue(nil)(t, db, u))[:43]
		}},
		{"revoked", func(t *testing.T, db *gorm.DB, u *models.User) string {
			k, secret, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2026-09-29")
			require.NoError(t, err)
			require.NoError(t, models.RevokeKey(ctx, db, k.ID, now))
			return secret
		}},
		{"revoked before its expiry", func(t *testing.T, db *gorm.DB, u *models.User) string {
			k, secret, err := models.CreateKey(ctx, db, u.ID, nil, at(time.Hour), "2026-09-29")
			require.NoError(t, err)
			require.NoError(t, models.RevokeKey(ctx, db, k.ID, now.Add(-time.Minute)))
			return secret
		}},
		{"expired", issue(at(-time.Hour))},
		{"expired a second ago", issue(at(-time.Second))},
		{"expires now", issue(at(0))},
	}
	for _, m := range malformedSecrets {
		tests = append(tests, struct {
			name   string
			secret setup
		}{"malformed " + m.name, func(*testing.T, *gorm.DB, *models.User) string { return m.secret }})
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				secret := tt.secret(t, db, u)
				k, gotUser, err := models.SecretKeyAuth(ctx, db, secret, now)
				require.True(t, errors.Is(err, models.ErrKeyInvalid), "want ErrKeyInvalid, got %v", err)
				require.Nil(t, k)
				require.Nil(t, gotUser)
			})
		}
	})
}

func TestKeyScopes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name   string
		scopes []string
		want   []string // the scopes the key holds; the rest of AllScopes it lacks
	}{
		{name: "nil is every scope", scopes: nil, want: models.AllScopes},
		{name: "empty is every scope", scopes: []string{}, want: models.AllScopes},
		{name: "one scope", scopes: []string{models.ScopeJobsRead}, want: []string{models.ScopeJobsRead}},
		{
			name:   "several scopes",
			scopes: []string{models.ScopeTasksRun, models.ScopeFilesRead},
			want:   []string{models.ScopeTasksRun, models.ScopeFilesRead},
		},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				k, secret, err := models.CreateKey(ctx, db, u.ID, tt.scopes, nil, "2026-09-29")
				require.NoError(t, err)
				stored, _, err := models.SecretKeyAuth(ctx, db, secret, time.Now().UTC())
				require.NoError(t, err)
				require.Equal(t, strings.Join(tt.want, ","), stored.Scopes)

				for _, key := range []*models.APIKey{k, stored} {
					for _, s := range models.AllScopes {
						require.Equal(t, contains(tt.want, s), key.HasScope(s), "scope %s", s)
					}
					for _, s := range []string{"", "jobs", "jobs:", "tasks:run,jobs:read", "JOBS:READ", "admin"} {
						require.False(t, key.HasScope(s), "scope %q", s)
					}
				}
			})
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestFirstKeyPinsServiceVersionPerUser(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		a, b := accountFor(t, db), accountFor(t, db)
		require.Empty(t, a.ServiceVersion, "a user without keys has no version")

		_, err := models.CreateKeyWithSecret(ctx, db, a.ID, nil, "2026-09-29", chosenSecret)
		require.NoError(t, err)
		_, _, err = models.CreateKey(ctx, db, a.ID, nil, nil, "2027-01-01")
		require.NoError(t, err)
		_, _, err = models.CreateKey(ctx, db, b.ID, nil, nil, "2027-01-01")
		require.NoError(t, err)

		for _, want := range []struct {
			user    *models.User
			version string
		}{{a, "2026-09-29"}, {b, "2027-01-01"}} {
			got, err := models.UserByID(ctx, db, want.user.ID)
			require.NoError(t, err)
			require.Equal(t, want.version, got.ServiceVersion, "user %d", want.user.ID)
		}
	})
}

func TestCreateKeyWithSecret(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		require.True(t, models.WellFormedKey(chosenSecret))

		t.Run("malformed", func(t *testing.T) {
			u := accountFor(t, db)
			for _, m := range malformedSecrets {
				k, err := models.CreateKeyWithSecret(ctx, db, u.ID, nil, "2026-09-29", m.secret)
				require.True(t, errors.Is(err, models.ErrKeyInvalid), "%s: want ErrKeyInvalid, got %v", m.name, err)
				require.Nil(t, k, m.name)
			}
			var n int64
			require.NoError(t, db.Model(&models.APIKey{}).Where("user_id = ?", u.ID).Count(&n).Error)
			require.Zero(t, n, "a refused secret stores no key")
			got, err := models.UserByID(ctx, db, u.ID)
			require.NoError(t, err)
			require.Empty(t, got.ServiceVersion, "a refused secret pins no version")
		})

		t.Run("well-formed", func(t *testing.T) {
			u := accountFor(t, db)
			k, err := models.CreateKeyWithSecret(
				ctx,
				db,
				u.ID,
				[]string{models.ScopeJobsRead},
				"2026-09-29",
				chosenSecret,
			)
			require.NoError(t, err)
			require.Equal(t, sha256Hex(chosenSecret), k.Hash)
			require.Equal(t, chosenSecret[:len(models.KeyPrefix)+4]+"…", k.Hint)
			require.Nil(t, k.ExpiresAt)

			row := apiKeyRow(t, db, k.ID)
			require.Equal(t, sha256Hex(chosenSecret), columnText(row["hash"]))
			for col, v := range row {
				require.NotContains(t, columnText(v), chosenSecret, "column %s holds the secret", col)
			}

			got, gotUser, err := models.SecretKeyAuth(ctx, db, chosenSecret, time.Now().UTC())
			require.NoError(t, err)
			require.Equal(t, k.ID, got.ID)
			require.Equal(t, u.ID, gotUser.ID)
			require.True(t, got.HasScope(models.ScopeJobsRead))
			require.False(t, got.HasScope(models.ScopeTasksRun))

			_, err = models.CreateKeyWithSecret(ctx, db, u.ID, nil, "2026-09-29", chosenSecret)
			require.Error(t, err, "two keys cannot share a secret")
		})
	})
}

func TestNewID(t *testing.T) {
	t.Parallel()
	const alphabet = "0123456789abcdefghijkmnpqrstvwxyz"
	for _, prefix := range []string{"", "key_", "j_"} {
		seen := make(map[string]bool, 1000)
		for range 1000 {
			id := models.NewID(prefix)
			require.True(t, strings.HasPrefix(id, prefix), "id %q", id)
			rest := strings.TrimPrefix(id, prefix)
			require.Len(t, rest, 20, "id %q", id)
			for _, r := range rest {
				require.True(t, strings.ContainsRune(alphabet, r), "id %q has %q", id, r)
			}
			require.False(t, seen[id], "id %q repeated", id)
			seen[id] = true
		}
	}
}

func TestKeysOfUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	expires := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, err := models.CreateUser(ctx, db, "keys@example.com", "")
		require.NoError(t, err)
		other, err := models.CreateUser(ctx, db, "other@example.com", "")
		require.NoError(t, err)

		none, err := models.KeysOfUser(ctx, db, u.ID)
		require.NoError(t, err)
		require.Empty(t, none, "a user without keys")

		plain, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2026-09-29")
		require.NoError(t, err)
		scoped, _, err := models.CreateKey(ctx, db, u.ID, []string{models.ScopeJobsRead}, &expires, "2026-09-29")
		require.NoError(t, err)
		require.NoError(t, models.RevokeKey(ctx, db, plain.ID, time.Now().UTC()))
		_, _, err = models.CreateKey(ctx, db, other.ID, nil, nil, "2026-09-29")
		require.NoError(t, err)

		keys, err := models.KeysOfUser(ctx, db, u.ID)
		require.NoError(t, err)
		byID := map[string]models.APIKey{}
		for _, k := range keys {
			byID[k.ID] = k
		}
		require.Len(t, byID, 2, "only this user's keys, each once")
		require.Contains(t, byID, plain.ID)
		require.Contains(t, byID, scoped.ID)
		require.NotNil(t, byID[plain.ID].RevokedAt, "revoked keys are listed")
		require.Nil(t, byID[plain.ID].ExpiresAt)
		require.Equal(t, plain.Hint, byID[plain.ID].Hint)
		require.Equal(t, models.ScopeJobsRead, byID[scoped.ID].Scopes)
		require.True(t, expires.Equal(*byID[scoped.ID].ExpiresAt))
		require.Nil(t, byID[scoped.ID].RevokedAt)
	})
}

// statementCounter counts the statements gorm runs through a session.
type statementCounter struct {
	logger.Interface
	n atomic.Int64
}

// Trace counts one statement.
func (c *statementCounter) Trace(context.Context, time.Time, func() (string, int64), error) {
	c.n.Add(1)
}
