package engines

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Progress takes what a running prediction says of its progress, read
// from the logs its engine reports while it runs (an async Cog
// prediction's logs webhooks): "45%" or "3/20". Report must not block: the
// step's wait for the prediction, and its completion, never wait for it.
type Progress interface {
	Report(progress string)
}

type progressKey struct{}

// WithProgress gives the steps run under ctx the taker of their model's
// progress (the job's progress.phase, activities).
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// reportProgress hands the progress logs show, if they show one, to the
// step's taker, and answers it ("" when they show none).
func reportProgress(ctx context.Context, logs string) string {
	s := ProgressOf(logs)
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && s != "" {
		p.Report(s)
	}
	return s
}

var (
	// tqdm's bar: " 45%|████▌     | 9/20 [00:04<00:05,  2.1it/s]".
	percentRE = regexp.MustCompile(`(\d{1,3}(?:\.\d+)?)\s?%`)
	// "step 3/20", "progress 3/20", "3 / 20", "[3/20]".
	fractionRE = regexp.MustCompile(`(\d+)\s?/\s?(\d+)`)
)

// ProgressOf reads the progress of a prediction from its logs: the last
// line (a carriage return, as tqdm rewrites its bar, also ends one) that
// shows a percentage ("45%|") or a count ("step 3/20", which answers
// "3/20"), "" when the last line shows neither. A plain line ("loading
// weights") is not shown: a caller sees the progress in the job's phase,
// and a model's own words may carry its paths or errors, which are the
// operator's (they stay in the step's heartbeat note).
func ProgressOf(logs string) string {
	line := lastLine(logs)
	if line == "" {
		return ""
	}
	if m := percentRE.FindStringSubmatch(line); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil && v >= 0 && v <= 100 {
			return fmt.Sprintf("%d%%", int(v))
		}
	}
	if m := fractionRE.FindStringSubmatch(line); m != nil {
		done, err1 := strconv.Atoi(m[1])
		total, err2 := strconv.Atoi(m[2])
		if err1 == nil && err2 == nil && total > 0 && done <= total && total < 1e7 {
			return fmt.Sprintf("%d/%d", done, total)
		}
	}
	return ""
}

// lastLine is the last line of logs with something printable in it,
// trimmed.
func lastLine(logs string) string {
	lines := strings.FieldsFunc(logs, func(r rune) bool { return r == '\n' || r == '\r' })
	blank := func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimFunc(lines[i], blank); l != "" {
			return strings.Map(func(r rune) rune {
				if !unicode.IsPrint(r) {
					return -1
				}
				return r
			}, l)
		}
	}
	return ""
}

// logNote is what the step's heartbeat note says of the prediction's
// logs: their last line, for the operator (the Temporal UI), its progress
// handed to the step's taker.
func logNote(ctx context.Context, logs string) string {
	reportProgress(ctx, logs)
	line := lastLine(logs)
	if line == "" {
		return ""
	}
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	return ": " + line
}
