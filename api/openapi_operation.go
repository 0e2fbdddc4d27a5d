package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/tasks"
)

// operation is how a route is documented.
type operation struct {
	id, summary, description, tag string
	// params are the query and header parameters, and the path parameters
	// that say more than a string; the others are read from the path.
	params []oa
	// body is the request body's media type objects by content type; nil
	// takes none.
	body oa
	// answers are the answers other than errors.
	answers []response
	// errors are the error statuses of the route beyond commonErrors.
	errors []int
}

// response is one documented answer other than an error.
type response struct {
	status      int
	description string
	content     oa // media type objects by content type; nil for none
	headers     oa // schemas by header name
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

// tagged sets the tag of routes.
func tagged(tag string, rows ...route) []route {
	for i := range rows {
		rows[i].op.tag = tag
	}
	return rows
}

func jsonAnswer(status int, description string, schema oa) response {
	return response{status: status, description: description, content: oa{"application/json": oa{"schema": schema}}}
}

func textAnswer(description string) response {
	return response{status: http.StatusOK, description: description, content: oa{"text/plain": oa{"schema": str()}}}
}

// bytesAnswer is a 200 of raw bytes in one of the media types.
func bytesAnswer(description string, media ...string) response {
	content := oa{}
	for _, m := range media {
		content[m] = oa{"schema": oa{"type": "string", "format": "binary"}}
	}
	return response{status: http.StatusOK, description: description, content: content}
}

func param(in, name, description string, schema oa) oa {
	return oa{"name": name, "in": in, "description": description, "schema": schema}
}

func query(name, description string, schema oa) oa {
	return param("query", name, description, schema)
}

func header(name, description string, schema oa) oa {
	return param("header", name, description, schema)
}

func pathParam(name, description string, schema oa) oa {
	p := param("path", name, description, schema)
	p["required"] = true
	return p
}

// pageParams are limit (1 to maxN, default def) and cursor.
func pageParams(def, maxN int) []oa {
	return []oa{
		query("limit", "Page size.", oa{"type": "integer", "minimum": 1, "maximum": maxN, "default": def}),
		query("cursor", "The next_cursor of the previous page.", str()),
	}
}

// perTask marks a schema that a task's document replaces with the task's
// own: its input, or its result.
func perTask(kind string, generic oa) oa {
	out := make(oa, len(generic)+1)
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
	case oa:
		if kind, ok := x["x-task"].(string); ok {
			if d != nil {
				return ref(d.Name + "." + kind)
			}
			out := make(oa, len(x))
			for k, v := range x {
				if k != "x-task" {
					out[k] = v
				}
			}
			return out
		}
		out := make(oa, len(x))
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
	case []oa:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = forTask(v, d)
		}
		return out
	}
	return v
}
