package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
)

// addJQ gives every command with --json a --jq EXPRESSION, as gh does: it
// implies --json and prints what the jq expression makes of each JSON
// document the command prints — a string as plain text, anything else as
// JSON.
func (r *userRun) addJQ(cmds []*cobra.Command) {
	for _, c := range cmds {
		r.addJQ(c.Commands())
		if c.Flags().Lookup("json") == nil {
			continue
		}
		var expr string
		c.Flags().StringVar(&expr, "jq", "",
			"filter the JSON output with a jq expression (implies --json), e.g. --jq '.items[].job_id'")
		pre := c.PreRunE
		c.PreRunE = func(c *cobra.Command, args []string) error {
			if expr != "" {
				q, err := gojq.Parse(expr)
				if err != nil {
					return &usageError{fmt.Sprintf("--jq %s: %v", expr, err)}
				}
				code, err := gojq.Compile(q)
				if err != nil {
					return &usageError{fmt.Sprintf("--jq %s: %v", expr, err)}
				}
				if err := c.Flags().Set("json", "true"); err != nil {
					return err
				}
				r.stdout = &jqWriter{out: r.stdout, code: code}
			}
			if pre != nil {
				return pre(c, args)
			}
			return nil
		}
	}
}

// jqWriter runs a jq program on each JSON document written to it, as soon
// as the document is complete, and writes its results to out.
type jqWriter struct {
	out  io.Writer
	code *gojq.Code
	buf  []byte
}

func (w *jqWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		dec := json.NewDecoder(bytes.NewReader(w.buf))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return len(p), nil
			}
			return 0, fmt.Errorf("--jq: the output is not JSON: %w", err)
		}
		w.buf = w.buf[dec.InputOffset():]
		if err := w.run(normalize(v)); err != nil {
			return 0, err
		}
	}
}

// run writes the program's results for one document.
func (w *jqWriter) run(v any) error {
	iter := w.code.Run(v)
	for {
		res, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := res.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, isString := res.(string); isString {
			if _, err := fmt.Fprintln(w.out, s); err != nil {
				return err
			}
			continue
		}
		b, err := gojq.Marshal(res)
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, b, "", "  "); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(w.out, pretty.String()); err != nil {
			return err
		}
	}
}

// normalize turns the decoder's json.Number into the int or float64 gojq
// works with.
func normalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return int(i)
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
	}
	return v
}
