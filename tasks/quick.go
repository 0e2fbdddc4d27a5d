package tasks

// Quick is implemented by a Runner whose steps take a few milliseconds for
// some inputs. Such a job runs inside the workflow task that admits it —
// its steps and its settlement as local activities of that task — which
// asks Temporal for one workflow task and no activity task per job; its
// handle is answered when the job has ended, a few milliseconds later than
// an admit alone. Quick must be cheap and deterministic; a job Quick
// refuses (or of a task without it) runs its steps on the steps queue.
type Quick interface {
	// Quick says whether every output of a validated input renders in a
	// few milliseconds, all of them together within QuickBudgetPixels.
	Quick(input Input) bool
}

// QuickBudgetPixels bounds the pixels a quick job draws over all its
// outputs: eight 512 px tiles or two of 1024 px (about 20 ms of one core).
const QuickBudgetPixels = 8 * 512 * 512

// IsQuick says whether a job of def with input runs inside its admit.
func IsQuick(def *Definition, input Input) bool {
	q, ok := def.Runner.(Quick)
	return ok && q.Quick(input)
}
