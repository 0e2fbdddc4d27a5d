package main

import (
	"fmt"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// submittedQueue is where the submit's answer says the job stands; nil
// when it did not say (a job that started, or a wait that ended).
func submittedQueue(sub *client.Submission) *wire.Queue {
	if sub.Job == nil {
		return nil
	}
	return sub.Job.Queue
}

// queueDescription is the progress bar's label while the job is queued:
// its place among the account's queued jobs and, when the service can
// estimate it, roughly when it starts ("queued: 3rd in line, starts in
// ~2m"). The estimate is a scale, so it is rounded up to one unit.
func queueDescription(q *wire.Queue) string {
	if q == nil || q.Position <= 0 {
		return "queued"
	}
	d := fmt.Sprintf("queued: %s in line", ordinal(q.Position))
	if q.ETASeconds != nil {
		d += ", starts in ~" + roughDuration(*q.ETASeconds)
	}
	return d
}

// ordinal writes 1 as 1st, 2 as 2nd, 11 as 11th, 23 as 23rd.
func ordinal(n int64) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// roughDuration writes seconds in one unit, rounded up: 45s, 2m, 3h.
func roughDuration(s int64) string {
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", max(s, 1))
	case s < 3600:
		return fmt.Sprintf("%dm", (s+59)/60)
	default:
		return fmt.Sprintf("%dh", (s+3599)/3600)
	}
}
