package activities

// RecordEvent records the deliveries of one job event (recordEvent), for
// the tests of event bodies and subscribers.
var RecordEvent = (*Activities).recordEvent
var CountSettled = (*JobMetrics).settledJob
