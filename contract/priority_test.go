package contract

import "testing"

// A job's priority: its intent's level (wait before submit before batch),
// its account as fairness key, its plan's weight; deliveries between
// submits and batches, housekeeping after everything.
func TestJobPriority(t *testing.T) {
	wait := JobPriority(JobInput{UserID: 7, Intent: IntentWait, Weight: 2})
	submit := JobPriority(JobInput{UserID: 7, Weight: 2})
	batch := JobPriority(JobInput{UserID: 8, Intent: IntentBatch})
	delivery := DeliveryPriority(7, 2)
	house := HousekeepingPriority()
	order := []Priority{wait, submit, delivery, batch, house}
	for i := 1; i < len(order); i++ {
		if order[i-1].Level >= order[i].Level {
			t.Fatalf("levels out of order: %+v", order)
		}
	}
	if wait.FairnessKey != "account-7" || submit.FairnessKey != wait.FairnessKey ||
		delivery.FairnessKey != wait.FairnessKey {
		t.Fatalf("account 7's work shares one fairness key: %+v", order)
	}
	if batch.FairnessKey == wait.FairnessKey || house.FairnessKey == wait.FairnessKey {
		t.Fatalf("another account, or housekeeping, has its own key: %+v", order)
	}
	if wait.Weight != 2 || delivery.Weight != 2 || batch.Weight != 0 {
		t.Fatalf("weights are the plan's (0 = the default 1): %+v", order)
	}
}
