// Package openapicheck validates answers of the service against its served
// OpenAPI document, for the router's tests and the end-to-end tests alike.
package openapicheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/stretchr/testify/require"
)

func init() {
	// Stored and example files answer in their own media types, and a job
	// manifest in its compact serialization.
	for _, media := range []string{"image/png", "image/svg+xml", "image/jpeg", "image/gif", "image/webp", "image/bmp",
		"application/pdf",
		"application/jose"} {
		openapi3filter.RegisterBodyDecoder(media, openapi3filter.FileBodyDecoder)
	}
}

// LoadDoc loads and validates an OpenAPI document, strict when asked: every
// object schema with properties then refuses properties it does not list,
// so an answer's undocumented field fails validation.
func LoadDoc(t testing.TB, body []byte, strict bool) *openapi3.T {
	t.Helper()
	if strict {
		var m map[string]any
		require.NoError(t, json.Unmarshal(body, &m))
		closeObjects(m)
		var err error
		body, err = json.Marshal(m)
		require.NoError(t, err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(body)
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()))
	return doc
}

// closeObjects sets additionalProperties false on every object schema with
// properties that leaves it unset.
func closeObjects(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"]; ok && x["type"] == "object" && x["additionalProperties"] == nil {
			x["additionalProperties"] = false
		}
		for _, y := range x {
			closeObjects(y)
		}
	case []any:
		for _, y := range x {
			closeObjects(y)
		}
	}
}

// CheckAnswer validates an answer against the document's operation at
// method and docPath: its status is documented, and its content type,
// headers and body match what is documented for it. A 2xx answer's request
// must match the documented parameters and body too.
func CheckAnswer(
	t testing.TB,
	doc *openapi3.T,
	method, docPath string,
	req *http.Request,
	body []byte,
	code int,
	head http.Header,
	resBody []byte,
) {
	t.Helper()
	item := doc.Paths.Value(docPath)
	require.NotNil(t, item, "%s is documented", docPath)
	op := item.GetOperation(method)
	require.NotNil(t, op, "%s %s is documented", method, docPath)
	params := map[string]string{}
	segs := strings.Split(req.URL.Path, "/")
	for i, p := range strings.Split(docPath, "/") {
		if strings.HasPrefix(p, "{") && i < len(segs) {
			params[p[1:len(p)-1]] = segs[i]
		}
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params,
		Route:   &routers.Route{Spec: doc, Path: docPath, PathItem: item, Method: method, Operation: op},
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	ctx := context.Background()
	if code < 300 {
		req.Body = io.NopCloser(bytes.NewReader(body))
		require.NoError(
			t,
			openapi3filter.ValidateRequest(ctx, in),
			"%s %s: the request is as documented",
			method,
			req.URL,
		)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: code, Header: head,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(resBody)
	require.NoError(
		t,
		openapi3filter.ValidateResponse(ctx, out),
		"%s %s answered %d: %s",
		method,
		req.URL,
		code,
		resBody,
	)
	mt, _, _ := mime.ParseMediaType(head.Get("Content-Type"))
	if media := op.Responses.Status(code); mt == "application/json" && media != nil &&
		media.Value.Content.Get(mt) != nil {
		var v any
		require.NoError(t, json.Unmarshal(resBody, &v))
		schema := media.Value.Content.Get(mt).Schema
		CheckValues(t, schema, v, fmt.Sprintf("%s %s answered %d", method, req.URL, code))
	}
}

// CheckValues walks a JSON value beside its schema and fails on a string
// that holds nothing: a field with no value is null where the schema lets
// it be null, and any other string holds something — unless its schema's
// description documents an empty string (a reference item's url before
// there is an image). what names the value in the failure.
func CheckValues(t testing.TB, schema *openapi3.SchemaRef, v any, what string) {
	t.Helper()
	var empty []string
	emptyStrings(schema, v, "$", &empty)
	require.Empty(t, empty, "%s: a field with no value is null, never an empty string", what)
}

// emptyStrings appends the paths of v's empty strings that schema does not
// document as possibly empty. Each alternative of oneOf and anyOf that v
// matches is walked.
func emptyStrings(ref *openapi3.SchemaRef, v any, path string, out *[]string) {
	if ref == nil || ref.Value == nil {
		return
	}
	s := ref.Value
	for _, alt := range s.AllOf {
		emptyStrings(alt, v, path, out)
	}
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, alt := range alts {
			if alt.Value != nil && alt.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()) == nil {
				emptyStrings(alt, v, path, out)
			}
		}
	}
	switch x := v.(type) {
	case string:
		if x == "" && s.Type != nil && s.Type.Includes("string") && !strings.Contains(s.Description, "empty string") {
			*out = append(*out, path)
		}
	case map[string]any:
		for k, val := range x {
			if p, ok := s.Properties[k]; ok {
				emptyStrings(p, val, path+"."+k, out)
			} else if s.AdditionalProperties.Schema != nil {
				emptyStrings(s.AdditionalProperties.Schema, val, path+"."+k, out)
			}
		}
	case []any:
		for i, val := range x {
			emptyStrings(s.Items, val, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

// Merge joins served OpenAPI documents into one: the first document with
// the paths and component schemas of the others added, so answers of routes
// documented apart (the panel's session-only operations) are checked alike.
func Merge(t testing.TB, bodies ...[]byte) []byte {
	t.Helper()
	var out map[string]any
	for i, b := range bodies {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(b, &doc))
		if i == 0 {
			out = doc
			continue
		}
		for _, section := range []string{"paths"} {
			for k, v := range doc[section].(map[string]any) {
				out[section].(map[string]any)[k] = v
			}
		}
		schemas := out["components"].(map[string]any)["schemas"].(map[string]any)
		for k, v := range doc["components"].(map[string]any)["schemas"].(map[string]any) {
			schemas[k] = v
		}
	}
	merged, err := json.Marshal(out)
	require.NoError(t, err)
	return merged
}
