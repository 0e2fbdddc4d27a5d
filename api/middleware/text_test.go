package middleware

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadableTextPasses checks that text a database stores (accents,
// emoji, a surrogate pair, an escaped U+FFFD) passes the check unchanged.
func TestReadableTextPasses(t *testing.T) {
	for _, doc := range []string{
		`{"name":"Café ☕ 𝄞"}`, `{"name":"\ud834\udd1e"}`, `{"name":"\ufffd"}`, `{"a":[{"b":"\"\\u0000\""}]}`,
		`{"name":"x","colors":["#fff",1,true,null,{"k":"v"}]}`, `[]`, `"plain"`, ``,
	} {
		field, bad := unreadableJSON([]byte(doc))
		require.False(t, bad, "%s: %s", doc, field)
	}
}
