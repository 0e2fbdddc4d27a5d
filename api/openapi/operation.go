package openapi

import (
	"net/http"

	"github.com/taskplatform/taskplatform/tasks"
)

// Operation is how a route is documented.
type Operation struct {
	ID, Summary, Description, Tag string
	// Params are the query and header parameters, and the path parameters
	// that say more than a string; the others are read from the path.
	Params []M
	// Body is the request body's media type objects by content type; nil
	// takes none.
	Body M
	// Answers are the answers other than errors.
	Answers []Response
	// Errors are the error statuses of the route beyond commonErrors.
	Errors []int
}

// Response is one documented answer other than an error.
type Response struct {
	Status      int
	Description string
	Content     M // media type objects by content type; nil for none
	Headers     M // schemas by header name
}

// commonErrors are the statuses every route can answer from the middleware
// in front of it: a key or header refused (400, 401, 403), a body too large
// or not JSON (413, 415), the rate limit (429), headers too large (431), and
// failures of the service or its database (500, 503).
var commonErrors = []int{
	http.StatusBadRequest,
	http.StatusUnauthorized,
	http.StatusForbidden,
	http.StatusRequestEntityTooLarge,
	http.StatusUnsupportedMediaType,
	http.StatusTooManyRequests,
	http.StatusRequestHeaderFieldsTooLarge,
	http.StatusInternalServerError,
	http.StatusServiceUnavailable,
}

// JSONAnswer is an answer of JSON with schema.
func JSONAnswer(status int, description string, schema M) Response {
	return Response{Status: status, Description: description, Content: M{"application/json": M{"schema": schema}}}
}

// TextAnswer is a 200 of plain text.
func TextAnswer(description string) Response {
	return Response{Status: http.StatusOK, Description: description, Content: M{"text/plain": M{"schema": Str()}}}
}

// bytesAnswer is a 200 of raw bytes in one of the media types.
func BytesAnswer(description string, media ...string) Response {
	content := M{}
	for _, m := range media {
		content[m] = M{"schema": M{"type": "string", "format": "binary"}}
	}
	return Response{Status: http.StatusOK, Description: description, Content: content}
}

// Param is a parameter in in (query, header or path).
func Param(in, name, description string, schema M) M {
	return M{"name": name, "in": in, "description": description, "schema": schema}
}

// Query is a query parameter.
func Query(name, description string, schema M) M {
	return Param("query", name, description, schema)
}

// Header is a header parameter.
func Header(name, description string, schema M) M {
	return Param("header", name, description, schema)
}

// PathParam is a path parameter; always required.
func PathParam(name, description string, schema M) M {
	p := Param("path", name, description, schema)
	p["required"] = true
	return p
}

// pageParams are limit (1 to maxN, default def) and cursor.
func PageParams(def, maxN int) []M {
	return []M{
		Query("limit", "Page size.", M{"type": "integer", "minimum": 1, "maximum": maxN, "default": def}),
		Query("cursor", "The next_cursor of the previous page.", Str()),
	}
}

// perTask marks a schema that a task's document replaces with the task's
// own: its input, or its result.
func PerTask(kind string, generic M) M {
	out := make(M, len(generic)+1)
	for k, v := range generic {
		out[k] = v
	}
	out["x-task"] = kind
	return out
}

// forTask writes v with the perTask schemas of d, or with the generic ones
// when d is nil.
func forTask(v any, d *tasks.Definition) any {
	switch x := v.(type) {
	case M:
		if kind, ok := x["x-task"].(string); ok {
			if d != nil {
				return Ref(d.Name + "." + kind)
			}
			out := make(M, len(x))
			for k, v := range x {
				if k != "x-task" {
					out[k] = v
				}
			}
			return out
		}
		out := make(M, len(x))
		for k, v := range x {
			out[k] = forTask(v, d)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = forTask(v, d)
		}
		return out
	case []M:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = forTask(v, d)
		}
		return out
	}
	return v
}
