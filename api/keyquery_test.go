package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestKeyInQueryIsFoundInEveryForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	k := models.KeyPrefix + "leaked"
	tests := []struct {
		name  string
		query string
		found bool
	}{
		{"named value", "?token=" + k, true},
		{"bare parameter", "?" + k, true},
		{"after an unparsable pair", "?a=%zz&k=" + k, true},
		{"percent-encoded prefix", "?k=tpk%5Fencoded", true},
		{"after a semicolon pair", "?x=1;k=" + k, true},
		{"bare after a semicolon", "?;" + k, true},
		{"plus as a leading space", "?k=+" + k, true},
		{"Key scheme", "?k=Key%20" + k, true},
		{"bearer scheme, any case, spaces", "?k=bEaReR++%09" + k, true},
		{"tab before the key", "?k=%09" + k, true},
		{"key as the name", "?" + k + "=1", true},
		{"invalid escape before the key", "?k=%zz;" + k, true},
		{"in a URL inside a value", "?next=%2Fapp%2Fkeys%3Fk%3D" + k, true},
		{"in a URL encoded twice", "?next=%252Fapp%252F%253Fa%253D1%2526k%253D" + k, true},
		{"in a pair inside a name", "?a%3D" + k, true},
		{"a URL inside a value without a key", "?next=%2Fapp%2Fjobs%3Fkey%3Dkey_abc%26outcome%3Dfailed", false},
		{"no query", "", false},
		{"harmless query", "?limit=10&cursor=abc", false},
		{"semicolons without a key", "?a=b;c=d", false},
		{"prefix inside a value", "?q=my" + k, false},
		{"other scheme", "?k=Basic%20" + k, false},
		{"prefix without its underscore", "?k=tpk", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("GET", "/v1/meta"+tc.query, "")
			if !tc.found {
				require.Equal(t, http.StatusOK, res.code, "%s", res.body)
				return
			}
			require.Equal(t, http.StatusBadRequest, res.code, "%s", res.body)
			require.Equal(t, "api_key_in_query", res.errCode(t))
		})
	}
}
