package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// The kinds of record the family keeps (handles moodboard:, brand_kit:,
// fabric:, range_plan:).
const (
	KindMoodboard = "moodboard"
	KindBrandKit  = "brand_kit"
	KindFabric    = "fabric"
	KindRangePlan = "range_plan"
)

// idPrefixes start the ids of each kind's records.
var idPrefixes = map[string]string{
	KindMoodboard: "mb_", KindBrandKit: "bk_", KindFabric: "fb_", KindRangePlan: "rp_",
}

// recordID is the id of the record a job makes: fixed by the job's id, so a
// retried submit or step finds the same record.
func recordID(kind, jobID string) string {
	return idPrefixes[kind] + strings.TrimPrefix(jobID, "j_")
}

// handleRe matches a record handle of kind; the id is group 1.
func handleRe(kind string) *regexp.Regexp {
	return regexp.MustCompile(`^` + kind + `:([A-Za-z0-9_-]{1,64})$`)
}

// HandlePattern is the schema pattern of a handle of a record kind.
func HandlePattern(kind string) string { return `^` + kind + `:[A-Za-z0-9_-]{1,64}$` }

// filePath is the relative address of a stored file, kept in records;
// readers answer it under the files base URL.
func filePath(id, ext string) string { return "/files/" + id + "." + ext }

// absolute answers a stored relative file address under base.
func absolute(base, url string) string {
	if strings.HasPrefix(url, "/files/") {
		return base + url
	}
	return url
}

// openRecord writes, at submit, the record a job makes: pending (analysing
// or creating) until the step that completes it. An estimate (env.DryRun)
// writes nothing.
func openRecord(ctx context.Context, env tasks.Env, kind, name string, fields any) error {
	if env.DryRun {
		return nil
	}
	status := models.RecordCreating
	if kind == KindMoodboard {
		status = models.RecordAnalysing
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return models.CreateRecord(
		ctx,
		env.DB,
		&models.Record{ID: recordID(kind, env.JobID), Kind: kind, UserID: env.UserID,
			JobID: env.JobID, Name: name, Status: status, Fields: string(b)},
		env.Time(),
	)
}

// completeRecord marks the job's record ready with its fields and analysis
// (nil: none). Without an env (a catalogue example) it does nothing.
func completeRecord(ctx context.Context, kind string, fields, analysis any) error {
	env, ok := tasks.EnvOf(ctx)
	if !ok {
		return nil
	}
	f, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var a []byte
	if analysis != nil {
		if a, err = json.Marshal(analysis); err != nil {
			return err
		}
	}
	return models.CompleteRecord(ctx, env.DB, recordID(kind, env.JobID), string(f), string(a), env.Time())
}

// handleOf is the handle of the record the step's job makes, or nil in a
// catalogue example.
func handleOf(ctx context.Context, kind string) any {
	env, ok := tasks.EnvOf(ctx)
	if !ok {
		return nil
	}
	return kind + ":" + recordID(kind, env.JobID)
}

// errNoRecord is the refusal of a handle that names no record the account
// may read.
func errNoRecord(field, ref string) *apierr.Error {
	kind, _, _ := strings.Cut(ref, ":")
	return apierr.Newf(apierr.InvalidRequest, "No %s %s belongs to the account or the curated library; list them at GET /v1/refs/%s.",
		strings.ReplaceAll(kind, "_", " "), ref, kind).
		WithField(field)
}

// readRecord reads the record behind ref (of kind) that env's account may
// read: its own or a curated one, with its status read with its job.
func readRecord(ctx context.Context, env tasks.Env, kind, field, ref string) (*models.Record, string, string, error) {
	m := handleRe(kind).FindStringSubmatch(ref)
	if m == nil {
		return nil, "", "", errNoRecord(field, ref)
	}
	r, err := models.ReadRecord(ctx, env.DB, env.UserID, kind, m[1])
	if errors.Is(err, models.ErrNotFound) {
		return nil, "", "", errNoRecord(field, ref)
	}
	if err != nil {
		return nil, "", "", err
	}
	var job *models.Job
	if r.JobID != "" {
		jobs, _, err := models.RecordJobs(ctx, env.DB, []models.Record{*r})
		if err != nil {
			return nil, "", "", err
		}
		job = jobs[r.JobID]
	}
	status, reason := r.State(job)
	return r, status, reason, nil
}

// Moodboard is a moodboard as other tasks read it.
type Moodboard struct {
	Handle  string
	Name    string
	Curated bool
	// Status is analysing, ready or failed; Reason says why it failed.
	Status, Reason string
	// Analysis is nil until the moodboard is ready; its look URLs are absolute.
	Analysis *Analysis
}

// ReadMoodboard reads moodboard:<id> for env's account (its own or a
// curated one); field names the input field that sent it. Without an env
// (a catalogue example) only curated moodboards are read.
func ReadMoodboard(ctx context.Context, env tasks.Env, field, ref string) (*Moodboard, error) {
	if env.DB == nil {
		if mb, ok := curatedMoodboard(ref); ok {
			return mb, nil
		}
		return nil, errNoRecord(field, ref)
	}
	r, status, reason, err := readRecord(ctx, env, KindMoodboard, field, ref)
	if err != nil {
		return nil, err
	}
	mb := &Moodboard{Handle: r.Handle(), Name: r.Name, Curated: r.Curated(), Status: status, Reason: reason}
	if r.Analysis != "" {
		var a Analysis
		if err := json.Unmarshal([]byte(r.Analysis), &a); err != nil {
			return nil, fmt.Errorf("read analysis of %s: %w", ref, err)
		}
		for i := range a.Looks {
			a.Looks[i].URL = absolute(env.FilesBaseURL, a.Looks[i].URL)
		}
		mb.Analysis = &a
	}
	return mb, nil
}

// Ready answers moodboard_not_ready naming field while the moodboard is
// analysing or when its analysis failed.
func (m *Moodboard) Ready(field string) error {
	switch m.Status {
	case models.RecordReady:
		return nil
	case models.RecordFailed:
		return apierr.Newf(apierr.MoodboardNotReady, "The moodboard %s failed: %s Create it again with moodboard.create.", m.Handle, m.Reason).
			WithField(field)
	}
	return apierr.Newf(apierr.MoodboardNotReady, "The moodboard %s is still being analysed; read it at GET /v1/files/%s and send again when its status is ready.", m.Handle, m.Handle).
		WithField(field)
}

// KitColour is one colour of a brand kit.
type KitColour struct {
	Hex  string `json:"hex"`
	Name string `json:"name"`
}

// KitLook is one look a brand kit keeps: a look of one of its moodboards.
type KitLook struct {
	// URL is the look's stored copy (absolute when read through ReadBrandKit).
	URL string `json:"url"`
	// Moodboard is the moodboard the look comes from.
	Moodboard string `json:"moodboard"`
	// Index is the look's position in that moodboard.
	Index int `json:"index"`
	// Look is the look's analysis; Match is its nearest kit colour per
	// dominant colour. Both are nil until the kit is ready.
	Look  *Look      `json:"analysis"`
	Match []KitMatch `json:"kit_match"`
}

// KitMatch pairs a look's dominant colour with the kit colour nearest it.
type KitMatch struct {
	Hex     string  `json:"hex"`
	KitHex  string  `json:"kit_colour"`
	DeltaE  float64 `json:"delta_e"`
	OnBrand bool    `json:"on_brand"`
}

// BrandKit is a brand kit as other tasks read it (image.recolour, techpacks).
type BrandKit struct {
	Handle string
	Name   string
	// Status is creating, ready or failed.
	Status, Reason string
	Colours        []KitColour
	Moodboards     []string
	Looks          []KitLook
	Notes          string
}

// brandKitFields is the stored object of a brand kit record.
type brandKitFields struct {
	Colours    []KitColour `json:"colours"`
	Moodboards []string    `json:"moodboards"`
	Looks      []KitLook   `json:"looks"`
	Notes      *string     `json:"notes"`
}

// ReadBrandKit reads brand_kit:<id> of env's account for a task that takes
// one (at submit through an Admitter, or in a step with tasks.EnvOf); field
// names the input field that sent it. A kit the account does not own
// answers invalid_request naming field.
func ReadBrandKit(ctx context.Context, env tasks.Env, field, ref string) (*BrandKit, error) {
	if env.DB == nil {
		return nil, errNoRecord(field, ref)
	}
	r, status, reason, err := readRecord(ctx, env, KindBrandKit, field, ref)
	if err != nil {
		return nil, err
	}
	var f brandKitFields
	if err := json.Unmarshal([]byte(r.Fields), &f); err != nil {
		return nil, fmt.Errorf("read brand kit %s: %w", ref, err)
	}
	for i := range f.Looks {
		f.Looks[i].URL = absolute(env.FilesBaseURL, f.Looks[i].URL)
	}
	kit := &BrandKit{
		Handle:     r.Handle(),
		Name:       r.Name,
		Status:     status,
		Reason:     reason,
		Colours:    f.Colours,
		Moodboards: f.Moodboards,
		Looks:      f.Looks,
	}
	if f.Notes != nil {
		kit.Notes = *f.Notes
	}
	return kit, nil
}

// LooksReady answers brand_kit_look_not_ready naming field when the kit
// keeps looks whose analysis is not ready: the kit's job has not analysed
// them yet, or failed before it did. A task that uses a kit's looks calls
// it; a kit without looks is always ready.
func (k *BrandKit) LooksReady(field string) error {
	if len(k.Looks) == 0 || k.Status == models.RecordReady {
		return nil
	}
	if k.Status == models.RecordFailed {
		return apierr.Newf(apierr.BrandKitLookNotReady, "The looks of brand kit %s were never analysed: %s Create the kit again.", k.Handle, k.Reason).
			WithField(field)
	}
	return apierr.Newf(apierr.BrandKitLookNotReady, "The looks of brand kit %s are still being analysed; send again when GET /v1/files/%s shows status ready.", k.Handle, k.Handle).
		WithField(field)
}

// Fabric is a fabric record as other tasks read it.
type Fabric struct {
	Handle  string
	Name    string
	Curated bool
	Status  string
	FabricFields
}

// ReadFabric reads fabric:<id>: env's account's own or a curated one.
// Without an env (a catalogue example) only curated fabrics are read.
func ReadFabric(ctx context.Context, env tasks.Env, field, ref string) (*Fabric, error) {
	if env.DB == nil {
		if f, ok := curatedFabric(ref); ok {
			return f, nil
		}
		return nil, errNoRecord(field, ref)
	}
	r, status, _, err := readRecord(ctx, env, KindFabric, field, ref)
	if err != nil {
		return nil, err
	}
	fab := &Fabric{Handle: r.Handle(), Name: r.Name, Curated: r.Curated(), Status: status}
	if err := json.Unmarshal([]byte(r.Fields), &fab.FabricFields); err != nil {
		return nil, fmt.Errorf("read fabric %s: %w", ref, err)
	}
	if fab.SwatchURL != nil {
		fab.SwatchURL = new(absolute(env.FilesBaseURL, *fab.SwatchURL))
	}
	return fab, nil
}

// RangePlan is a range plan as other tasks read it (techpacks).
type RangePlan struct {
	Handle string
	Name   string
	Status string
	RangePlanFields
}

// ReadRangePlan reads range_plan:<id> of env's account.
func ReadRangePlan(ctx context.Context, env tasks.Env, field, ref string) (*RangePlan, error) {
	if env.DB == nil {
		return nil, errNoRecord(field, ref)
	}
	r, status, _, err := readRecord(ctx, env, KindRangePlan, field, ref)
	if err != nil {
		return nil, err
	}
	rp := &RangePlan{Handle: r.Handle(), Name: r.Name, Status: status}
	if err := json.Unmarshal([]byte(r.Fields), &rp.RangePlanFields); err != nil {
		return nil, fmt.Errorf("read range plan %s: %w", ref, err)
	}
	return rp, nil
}

// InStep turns a refusal of the readers above, met inside a step, into the
// step's permanent failure (processing_failed); other errors are retried.
func InStep(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return &tasks.StepError{Code: contract.ErrTypeProcessing, Message: ae.Message}
	}
	return err
}
