package contract

// The deprecation notices: a Temporal Schedule runs NoticesWorkflow weekly;
// it plans the week's notices into the outbox and sends each.
const (
	// NoticesScheduleID is the schedule's id (temporal schedule trigger
	// --schedule-id deprecation-notices sends at once).
	NoticesScheduleID = "deprecation-notices"
	// NoticesWorkflow is the workflow the schedule starts.
	NoticesWorkflow = "DeprecationNoticesWorkflow"
	// NoticesWindowDays is how recent a call to a deprecated task must be
	// for its account to be told: calls stop, notices stop.
	NoticesWindowDays = 14
)

// NoticesPlan is what PlanNotices wrote: the outbox ids of the notices of
// the week still to send.
type NoticesPlan struct {
	Pending []string
}

// The notices' activities (methods of activities.Activities).
const (
	ActivityPlanNotices = "PlanNotices"
	ActivitySendNotice  = "SendNotice"
)
