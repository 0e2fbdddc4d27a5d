package middleware

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
)

// RefuseUnreadableText answers 400 malformed_request (through refuse),
// naming the field, to a path parameter or a query parameter (name or
// value) no database stores as sent: not UTF-8, or holding a NUL. It runs
// before anything reads the database, so both databases answer alike.
func RefuseUnreadableText(refuse Refusal) gin.HandlerFunc {
	return func(c *gin.Context) {
		for _, p := range c.Params {
			if !storableText(p.Value) {
				refuse(c, Unreadable(p.Key, "The %s in the path is not UTF-8 text without NUL."))
				return
			}
		}
		for name, values := range c.Request.URL.Query() {
			if !storableText(name) {
				refuse(c, Unreadable("", "A query parameter's name is not UTF-8 text without NUL."))
				return
			}
			for _, v := range values {
				if !storableText(v) {
					refuse(c, Unreadable(name, "The %s parameter is not UTF-8 text without NUL."))
					return
				}
			}
		}
		c.Next()
	}
}

// RefuseUnreadableBody answers 400 malformed_request, naming the field, to
// a JSON body with a string (member name or value) no database stores as
// sent: bytes that are not UTF-8, a NUL, or an escaped lone UTF-16
// surrogate such as \ud800, which a JSON decoder would silently turn into
// U+FFFD. It runs once the caller is identified (an anonymous caller is
// not read a body for), before any handler; the body, already capped, is
// read whole and handed on unchanged.
func RefuseUnreadableBody() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.FullPath() == "" || !hasBody(c.Request) || !JSONMediaType(c.GetHeader("Content-Type")) {
			c.Next()
			return
		}
		body, err := ReadBody(c)
		if err != nil {
			Fail(c, err)
			return
		}
		if field, bad := unreadableJSON(body); bad {
			msg := "The body holds a string that is not UTF-8 text without NUL (or escapes a lone surrogate)."
			if field != "" {
				msg = "%s is not UTF-8 text without NUL (or escapes a lone surrogate)."
			}
			Fail(c, Unreadable(field, msg))
			return
		}
		c.Request.Body = io.NopCloser(bytes.NewReader(body))
		c.Next()
	}
}

// Unreadable is the 400 malformed_request naming field (when known): msg
// places the field's name with %s. A field is a route's parameter, a
// query name already found readable, or a JSON path whose names are.
func Unreadable(field, msg string) *apierr.Error {
	if field == "" {
		return apierr.New(apierr.MalformedRequest, msg)
	}
	return apierr.Newf(apierr.MalformedRequest, msg, field).WithField(field)
}

// storableText says whether s is UTF-8 without NUL: text both databases
// store as it was sent.
func storableText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// jsonFrame is one open object or array while unreadableJSON walks a
// document: the member name or the item index being read.
type jsonFrame struct {
	array bool
	index int
	name  string
}

// UnreadableJSON finds the first string of a JSON document (a member name
// or a value) that is not storable text: bytes that are not UTF-8, a NUL
// (raw or \u0000), or a \u escape of a lone surrogate. field is its path
// (name, colors[2], a.b); a bad member name is placed at its object's path.
// Only the text is checked here: a document that is not JSON is refused by
// its reader.
func unreadableJSON(doc []byte) (field string, bad bool) {
	var stack []jsonFrame
	top := func() *jsonFrame {
		if len(stack) == 0 {
			return nil
		}
		return &stack[len(stack)-1]
	}
	for i := 0; i < len(doc); {
		switch doc[i] {
		case '{':
			stack = append(stack, jsonFrame{})
			i++
		case '[':
			stack = append(stack, jsonFrame{array: true})
			i++
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			i++
		case ',':
			if f := top(); f != nil && f.array {
				f.index++
			} else if f != nil {
				f.name = ""
			}
			i++
		case '"':
			end, ok := jsonStringEnd(doc, i)
			f := top()
			naming := f != nil && !f.array && f.name == "" && nextNonSpace(doc, end) == ':'
			if !ok {
				return jsonPath(stack), true
			}
			if naming {
				var name string
				if json.Unmarshal(doc[i:end], &name) != nil {
					return "", false // not JSON: its reader refuses it
				}
				f.name = name
			}
			i = end
		default:
			i++
		}
	}
	return "", !utf8.Valid(doc)
}

// jsonStringEnd reads the string literal starting at doc[start] (a quote)
// and returns the index after its closing quote, and false when it holds
// text no database stores as sent. An unterminated literal ends the
// document (its reader refuses it).
func jsonStringEnd(doc []byte, start int) (int, bool) {
	for j := start + 1; j < len(doc); {
		switch c := doc[j]; {
		case c == '"':
			return j + 1, true
		case c == 0:
			return j, false
		case c == '\\' && j+1 < len(doc) && doc[j+1] == 'u':
			r, ok := hex4(doc, j+2)
			switch {
			case !ok:
				return len(doc), true // not JSON
			case r == 0 || (r >= 0xdc00 && r <= 0xdfff):
				return j, false
			case r >= 0xd800 && r < 0xdc00:
				low, ok := rune(0), j+8 < len(doc) && doc[j+6] == '\\' && doc[j+7] == 'u'
				if ok {
					low, ok = hex4(doc, j+8)
				}
				if !ok || low < 0xdc00 || low > 0xdfff {
					return j, false
				}
				j += 12
			default:
				j += 6
			}
		case c == '\\':
			j += 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(doc[j:])
			if r == utf8.RuneError && size == 1 {
				return j, false
			}
			j += size
		default:
			j++
		}
	}
	return len(doc), true
}

// hex4 reads the four hex digits of a \u escape at doc[at:].
func hex4(doc []byte, at int) (rune, bool) {
	if at+4 > len(doc) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(doc[at:at+4]), 16, 32)
	return rune(n), err == nil
}

// nextNonSpace is the first byte from doc[at] that is not JSON white space
// (0 at the end).
func nextNonSpace(doc []byte, at int) byte {
	for ; at < len(doc); at++ {
		switch doc[at] {
		case ' ', '\t', '\n', '\r':
		default:
			return doc[at]
		}
	}
	return 0
}

// jsonPath writes the open frames as a public field path.
func jsonPath(stack []jsonFrame) string {
	var b strings.Builder
	for _, f := range stack {
		switch {
		case f.array:
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
		case f.name != "":
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.name)
		}
	}
	return b.String()
}
