package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
)

// RefPattern is the shape of an image reference a task input takes: a
// file: or art: handle, or a public https URL.
const RefPattern = `^((file|art):[A-Za-z0-9_-]{1,64}|https://[^\s]+)$`

var refRe = regexp.MustCompile(RefPattern)

// IsHandle says whether ref is a handle (kind:id) rather than a URL.
func IsHandle(ref string) bool {
	m := refRe.FindStringSubmatch(ref)
	return m != nil && m[2] != ""
}

// Loader fetches the bytes behind an image reference for a running step.
type Loader interface {
	// Load returns the bytes of ref. A reference that cannot be fetched is
	// a *FetchError saying why in the caller's words; one that can never
	// load for another reason may be a *StepError.
	Load(ctx context.Context, ref string) ([]byte, error)
}

// FetchError is an image reference a loader could not fetch: an address
// that cannot be reached (refused, timed out, no such host, a TLS failure,
// not public), an answer other than 200, a handle whose file is gone.
type FetchError struct {
	// Reason is why, in words a caller can act on and free of the
	// service's internals: "the connection was refused".
	Reason string
	// Temporary says a later attempt may succeed (a refused connection, a
	// timeout, a 503): the step is retried, and fails with Reason when its
	// attempts run out.
	Temporary bool
	// Err is the cause, for the logs and the operator's view of the step;
	// never shown to the caller.
	Err error
}

// Error implements error.
func (e *FetchError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return e.Reason + ": " + e.Err.Error()
}

// Unwrap is the cause.
func (e *FetchError) Unwrap() error { return e.Err }

type loaderKey struct{}

// WithLoader gives steps run under ctx the loader of image references.
func WithLoader(ctx context.Context, l Loader) context.Context {
	return context.WithValue(ctx, loaderKey{}, l)
}

// errNoLoader is a programming error: a step that reads references ran
// without a loader.
var errNoLoader = errors.New("tasks: no image loader in the step context")

// LoadRef returns the bytes behind image reference r through the loader
// of ctx: a step reads its reference fields with it. A reference that
// could not be fetched is a *StepError naming r's field ("the image at
// images[0] could not be fetched: the connection was refused"), Temporary
// when a later attempt may succeed.
func LoadRef(ctx context.Context, r Ref) ([]byte, error) {
	l, ok := ctx.Value(loaderKey{}).(Loader)
	if !ok {
		return nil, errNoLoader
	}
	data, err := l.Load(ctx, r.Ref)
	var fe *FetchError
	if errors.As(err, &fe) {
		msg := fmt.Sprintf("the image at %s could not be fetched: %s", r.Field, fe.Reason)
		return nil, &StepError{Code: "processing_failed", Message: msg, Temporary: fe.Temporary, Err: err}
	}
	return data, err
}

// fixtureLoader serves the files an example sends.
type fixtureLoader map[string][]byte

// Load implements Loader.
func (f fixtureLoader) Load(_ context.Context, ref string) ([]byte, error) {
	if b, ok := f[ref]; ok {
		return b, nil
	}
	return nil, &StepError{Code: "processing_failed", Message: "unknown example file " + ref}
}

// RefKeyword marks an input field that holds an image reference; the API
// checks at submit that a handle is the caller's and a URL public. It sits
// on a top-level field or on a field of the objects of a top-level array
// (items[].images).
const RefKeyword = "x-ref"

// RefFields lists the input fields that hold image references: a string,
// or an array of them (the field's schema carries x-ref either way; its
// items are references). A field of the objects an array holds is named by
// its path, the array's name and [] before it: items[].images.
func (d *Definition) RefFields() []string {
	var s refSchema
	if err := json.Unmarshal(d.InputSchema, &s); err != nil {
		return nil
	}
	out := s.refFields("")
	slices.Sort(out)
	return out
}

// refSchema is the part of a schema the reference walk reads.
type refSchema struct {
	Ref        any                  `json:"x-ref"`
	Items      *refSchema           `json:"items"`
	Properties map[string]refSchema `json:"properties"`
}

// refFields lists the reference fields of an object schema's properties,
// each after prefix; an array of objects is walked into.
func (s refSchema) refFields(prefix string) []string {
	var out []string
	for name, p := range s.Properties {
		switch {
		case p.Ref != nil:
			out = append(out, prefix+name)
		case p.Items != nil && p.Items.Properties != nil:
			out = append(out, p.Items.refFields(prefix+name+"[].")...)
		}
	}
	return out
}

// Ref is one image reference of an input: its public field path (image,
// images[2], items[0].images[1]) and the reference as sent.
type Ref struct {
	Field string
	Ref   string
}

// Refs lists the image references of field (one of RefFields) in a
// validated input: the string itself, or each item of an array in order;
// for a field of an array's objects (items[].images), those of each object
// in order, named by their place (items[0].images[1]).
func Refs(in map[string]any, field string) []Ref {
	return refsAt(in, field, "")
}

// refsAt lists the references of field in in, each named after prefix.
func refsAt(in map[string]any, field, prefix string) []Ref {
	if head, rest, nested := strings.Cut(field, "[]."); nested {
		var out []Ref
		list, _ := in[head].([]any)
		for i, x := range list {
			if m, ok := x.(map[string]any); ok {
				out = append(out, refsAt(m, rest, fmt.Sprintf("%s%s[%d].", prefix, head, i))...)
			}
		}
		return out
	}
	name := prefix + field
	switch v := in[field].(type) {
	case string:
		return []Ref{{Field: name, Ref: v}}
	case []any:
		var out []Ref
		for i, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, Ref{Field: fmt.Sprintf("%s[%d]", name, i), Ref: s})
			}
		}
		return out
	case []string:
		return ListRefs(name, v)
	}
	return nil
}

// ListRefs lists the image references of a list field of a typed input,
// each named by its place in the list (images[2]), in order.
func ListRefs(field string, refs []string) []Ref {
	out := make([]Ref, 0, len(refs))
	for i, s := range refs {
		out = append(out, Ref{Field: fmt.Sprintf("%s[%d]", field, i), Ref: s})
	}
	return out
}

// ImageSize is the pixel size of an image reference known at submit (an
// upload records it).
type ImageSize struct{ Width, Height int }

// ImageSides bounds the sides, in pixels, of the images a reference field
// takes. The step that decodes the image and the submit check of an upload
// whose size is known both use it.
type ImageSides struct{ Min, Max int }

// Check returns the public reason a w × h px image does not fit, or "".
func (b ImageSides) Check(w, h int) string {
	if w < b.Min || h < b.Min || w > b.Max || h > b.Max {
		return fmt.Sprintf("the image is %d × %d px; it must be %d to %d px a side", w, h, b.Min, b.Max)
	}
	return ""
}

// RefErrors are the codes the submit check of reference fields answers
// beyond validation: a URL that is not public, an upload whose recorded
// size is over the pixel budget.
var RefErrors = []apierr.Code{apierr.ImageNotPublic, apierr.RequestRefused}
