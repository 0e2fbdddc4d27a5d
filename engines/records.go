package engines

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// recordRef is a field of a record an input field names by its handle
// ("$model.skin", "$model.images[0]" of photoshoot.create's model): the
// Runner reads the record for the job's account (its own or a curated
// one) and hands the model the field's value. A value that is a file
// reference (a file: or art: handle, an https URL: a model's reference
// photos as sent) is fetched by the service and handed on as its own copy,
// as a file field of the input is.
type recordRef struct {
	// Field is the input field holding the handle; Ref the handle.
	Field, Ref string
	// Path is the record's field; Index the element of a list field, or -1.
	Path  string
	Index int
}

var fileRefRe = regexp.MustCompile(tasks.RefPattern)

// readRecord reads the record behind an input field's handle for env's
// account, refusing one that is not ready to use.
func readRecord(ctx context.Context, env tasks.Env, field, ref string) (map[string]any, error) {
	if env.DB == nil {
		return nil, recordstore.NoRecord(field, ref)
	}
	kind, _, _ := strings.Cut(ref, ":")
	r, status, reason, err := recordstore.Read(ctx, env, kind, field, ref)
	if err != nil {
		return nil, err
	}
	if status != models.RecordReady {
		msg := fmt.Sprintf("%s is %s, not ready to use yet; send it again once its job has completed it.", ref, status)
		if reason != "" {
			msg = fmt.Sprintf("%s failed (%s) and cannot be used; make it again.", ref, reason)
		}
		return nil, apierr.New(apierr.RequestRefused, msg).WithField(field)
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(r.Fields), &fields); err != nil {
		return nil, fmt.Errorf("engines: read %s: %w", ref, err)
	}
	return fields, nil
}

// records answers, for a job the route takes, whether every record its
// mapping reads can be read: at submit, so an unknown or unfinished record
// is refused before credits are held.
func (w *whenRunner) records(ctx context.Context, env tasks.Env, input map[string]any) error {
	for _, f := range w.bind.Input.recordFields() {
		if ref, ok := input[f].(string); ok {
			if _, err := readRecord(ctx, env, f, ref); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillRecords replaces each record field in a mapped input by its value
// (a file reference by a fileRef the inputs then hand on), reading each
// record once.
func fillRecords(ctx context.Context, v any) (any, error) {
	read := map[string]map[string]any{}
	var fill func(v any) (any, error)
	fill = func(v any) (any, error) {
		switch x := v.(type) {
		case recordRef:
			fields, ok := read[x.Ref]
			if !ok {
				env, _ := tasks.EnvOf(ctx)
				var err error
				if fields, err = readRecord(ctx, env, x.Field, x.Ref); err != nil {
					return nil, &tasks.StepError{Code: string(apierr.ProcessingFailed),
						Message: fmt.Sprintf("%s could not be read for the model", x.Ref), Err: err}
				}
				read[x.Ref] = fields
			}
			return recordValue(x, fields[x.Path]), nil
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				r, err := fill(e)
				if err != nil {
					return nil, err
				}
				if r != nil {
					out[k] = r
				}
			}
			return out, nil
		case []any:
			out := make([]any, 0, len(x))
			for _, e := range x {
				r, err := fill(e)
				if err != nil {
					return nil, err
				}
				if r != nil {
					out = append(out, r)
				}
			}
			return out, nil
		}
		return v, nil
	}
	return fill(v)
}

// recordValue is the value of record field x: an element of a list when x
// names one (nil past its end), file references as fileRefs.
func recordValue(x recordRef, v any) any {
	path := x.Field + "." + x.Path
	if x.Index >= 0 {
		list := asList(v)
		if x.Index >= len(list) {
			return nil
		}
		v, path = list[x.Index], fmt.Sprintf("%s[%d]", path, x.Index)
	}
	asRef := func(e any, at string) any {
		if s, ok := e.(string); ok && fileRefRe.MatchString(s) {
			return fileRef{Field: at, Ref: s}
		}
		return e
	}
	if list := asList(v); list != nil {
		out := make([]any, len(list))
		for j, e := range list {
			out[j] = asRef(e, fmt.Sprintf("%s[%d]", path, j))
		}
		return out
	}
	return asRef(v, path)
}

// recordFields are the input fields whose records the mapping reads
// ("$model.skin" reads model's), sorted.
func (m Mapping) recordFields() []string {
	var out []string
	for _, f := range m.paths() {
		if head, _, dotted := strings.Cut(f, "."); dotted && !slices.Contains(out, head) {
			out = append(out, head)
		}
	}
	slices.Sort(out)
	return out
}
