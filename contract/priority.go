package contract

import "strconv"

// Intents of a submit (JobInput.Intent): why a job was submitted, which
// sets its priority on the task queues (JobPriority).
const (
	// IntentSubmit is an ordinary submit (the zero value).
	IntentSubmit = ""
	// IntentWait is a submit with Prefer: wait: someone holds a
	// connection open for its answer.
	IntentWait = "wait"
	// IntentBatch is a job of a batch (POST /v1/batches).
	IntentBatch = "batch"
)

// Priority levels on the task queues (Temporal's priority keys: a queue
// dispatches every task of a lower level before any of a higher one).
// Within a level, tasks are shared across accounts in proportion to their
// plans' weights (fairness keys).
const (
	// LevelWait is a Prefer: wait submit.
	LevelWait = 1
	// LevelSubmit is an ordinary submit.
	LevelSubmit = 2
	// LevelDelivery is a webhook delivery: work already done, on its way
	// to the account's receiver.
	LevelDelivery = 3
	// LevelBatch is a job of a batch.
	LevelBatch = 4
	// LevelHousekeeping is the service's own upkeep (the deprecation
	// notices' weekly run).
	LevelHousekeeping = 5
)

// Priority is where a workflow's tasks, and its activities' (they inherit
// it), stand on the task queues: its level, its fairness key (the account)
// and the key's weight (0 means 1).
type Priority struct {
	Level       int
	FairnessKey string
	Weight      float32
}

// JobPriority is the priority of a job: the level of its intent, its
// account as fairness key with its plan's weight.
func JobPriority(in JobInput) Priority {
	level := LevelSubmit
	switch in.Intent {
	case IntentWait:
		level = LevelWait
	case IntentBatch:
		level = LevelBatch
	}
	return Priority{Level: level, FairnessKey: FairnessKey(in.UserID), Weight: in.Weight}
}

// DeliveryPriority is the priority of a webhook delivery to an account of
// plan weight weight.
func DeliveryPriority(userID uint64, weight float32) Priority {
	return Priority{Level: LevelDelivery, FairnessKey: FairnessKey(userID), Weight: weight}
}

// HousekeepingPriority is the priority of the service's own upkeep: after
// every account's work, under a fairness key of its own.
func HousekeepingPriority() Priority {
	return Priority{Level: LevelHousekeeping, FairnessKey: "housekeeping"}
}

// FairnessKey is an account's fairness key on the task queues.
func FairnessKey(userID uint64) string { return "account-" + strconv.FormatUint(userID, 10) }
