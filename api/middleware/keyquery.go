package middleware

import (
	"encoding/hex"
	"strings"
	"unicode"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// RejectKeyInQuery refuses, before anything else runs, a URL whose query
// string carries a key: the key may have leaked. The refusal counts against
// the calling address but is always answered api_key_in_query.
func RejectKeyInQuery(l *Limiter) gin.HandlerFunc {
	return func(c *gin.Context) {
		if !keyInQuery(c.Request.URL.RawQuery) {
			c.Next()
			return
		}
		_ = l.Count(c, addressOf(c)) // counted only: the answer is api_key_in_query either way
		Fail(c, apierr.New(apierr.APIKeyInQuery, ""))
	}
}

// keyInQuery scans a raw query string the way no parser can be fooled:
// every component between & and ; is read whole and as both sides of its
// first =, each percent-decoded (+ as a space), so pairs a parser drops and
// values hidden behind spaces or a Key/Bearer scheme are still seen. A
// name or value that decodes to a query or URL of its own (such as the
// panel's ?next=/app/…%3Fk%3D…) is scanned in turn, a few levels deep.
func keyInQuery(raw string) bool { return keyInQueryAt(raw, 0) }

// nestedQueryDepth is how many encodings deep keyInQuery looks.
const nestedQueryDepth = 3

func keyInQueryAt(raw string, depth int) bool {
	parts := strings.FieldsFunc(raw, func(r rune) bool { return r == '&' || r == ';' })
	for _, part := range parts {
		name, value, _ := strings.Cut(part, "=")
		if looksLikeKey(queryUnescape(part)) {
			return true
		}
		for _, s := range []string{name, value} {
			s = queryUnescape(s)
			if looksLikeKey(s) {
				return true
			}
			if depth < nestedQueryDepth && strings.ContainsAny(s, "?&;=%") {
				if _, query, ok := strings.Cut(s, "?"); ok {
					s = query
				}
				if keyInQueryAt(s, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// looksLikeKey says whether s starts with the key prefix once trimmed, bare
// or after a Key or Bearer scheme (any case).
func looksLikeKey(s string) bool {
	s = trimBlank(s)
	if strings.HasPrefix(s, models.KeyPrefix) {
		return true
	}
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return false
	}
	scheme := s[:i]
	return (strings.EqualFold(scheme, "Key") || strings.EqualFold(scheme, "Bearer")) &&
		strings.HasPrefix(trimBlank(s[i:]), models.KeyPrefix)
}

// trimBlank trims spaces and control characters from both ends.
func trimBlank(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}

// queryUnescape decodes + as a space and every valid %XX escape; an invalid
// escape is kept as it is, so one cannot hide the rest of the string.
func queryUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '+':
			b.WriteByte(' ')
		case s[i] == '%' && i+2 < len(s):
			if v, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				b.Write(v)
				i += 2
				continue
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
