package models

import (
	"fmt"

	"gorm.io/gorm"
)

// JobEventsChannel is the PostgreSQL notification channel on which every
// change of a job row is announced; a payload is a job id, or a key id
// (key_…) when a key is revoked or its expiry changes (migration 0014). The
// live job streams (package jobstream) listen on it.
const JobEventsChannel = "tp_job_events"

// jobNotifyDDL makes the jobs table announce its own changes, at commit and
// inside the statement that made them: recording a job's start, an output
// or its end costs no round trip of its own (migration 0010).
const jobNotifyDDL = `
CREATE OR REPLACE FUNCTION tp_job_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('` + JobEventsChannel + `', NEW.id);
	RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS jobs_notify ON jobs;
CREATE TRIGGER jobs_notify AFTER INSERT OR UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION tp_job_notify();
`

// migrateJobNotify is migration 0010: on PostgreSQL, the notify trigger.
// SQLite has no notifications; its streams are woken in process.
func migrateJobNotify(tx *gorm.DB) error {
	if !IsPostgres(tx) {
		return nil
	}
	if err := tx.Exec(jobNotifyDDL).Error; err != nil {
		return fmt.Errorf("0010: %w", err)
	}
	return nil
}
