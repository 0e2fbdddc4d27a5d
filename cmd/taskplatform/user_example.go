package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/taskplatform/taskplatform/client"
)

// exampleCommand is a task example as a command to paste: `taskplatform
// run TASK --set k=v …`, each value written so --set reads it back as the
// same JSON (setValue), quoted for a POSIX shell; when a value cannot be
// (a null), the body is sent on standard input instead.
func exampleCommand(task string, body json.RawMessage, schema *schemaNode) string {
	keys, err := objectKeys(body)
	var input map[string]any
	if err == nil {
		err = json.Unmarshal(body, &input)
	}
	if err != nil {
		return ""
	}
	args := []string{"taskplatform", "run", task}
	for _, k := range keys {
		v := input[k]
		text, ok := setText(v)
		prop := schema.Properties[k]
		if prop == nil {
			prop = &schemaNode{}
		}
		if ok {
			back, err := setValue(k, text, prop)
			ok = err == nil && sameJSON(back, v)
		}
		if !ok {
			var compact bytes.Buffer
			_ = json.Compact(&compact, body)
			return "taskplatform run " + shellWord(task) + " --input - <<'JSON'\n" + compact.String() + "\nJSON"
		}
		args = append(args, "--set", shellWord(k+"="+text))
	}
	return strings.Join(args, " ")
}

// setText is a value as --set takes it: a string as is, anything else as
// JSON; false for null, which --set cannot write.
func setText(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", false
	case string:
		return v, true
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}

// sameJSON says whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return false
	}
	var va, vb any
	_ = json.Unmarshal(ja, &va)
	_ = json.Unmarshal(jb, &vb)
	return reflect.DeepEqual(va, vb)
}

// objectKeys are a JSON object's keys in the order written.
func objectKeys(raw json.RawMessage) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// shellWord is s as one POSIX shell word: as is when plain, else quoted.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && !strings.ContainsRune("_-.,=/:+@%", r)
	}) < 0 {
		return s
	}
	return shellQuote(s)
}

// printExample prints the task's first example as a ready command,
// preferring one that sends no files (its file handles are the
// catalogue's, not the caller's); nothing when the task has none.
func (r *userRun) printExample(exs []client.TaskExample, task string, schema *schemaNode) {
	if len(exs) == 0 {
		return
	}
	ex := exs[0]
	for _, e := range exs {
		if len(e.FilesSent) == 0 {
			ex = e
			break
		}
	}
	cmd := exampleCommand(task, ex.Request.Body, schema)
	if cmd == "" {
		return
	}
	title := ex.Title
	if title == "" {
		title = ex.Name
	}
	fmt.Fprintf(r.stdout, "\nexample — %s:\n  %s\n", title, strings.ReplaceAll(cmd, "\n", "\n  "))
	if len(ex.FilesSent) > 0 {
		fmt.Fprintln(r.stdout,
			"  (put your own file handles from `taskplatform files upload PATH` in place of the example's)")
	}
}
