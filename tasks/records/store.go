package records

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// The kinds of record the family keeps (handles moodboard:, brand_kit:,
// fabric:, range_plan:).
const (
	KindMoodboard = "moodboard"
	KindBrandKit  = recordread.KindBrandKit
	KindFabric    = recordread.KindFabric
	KindRangePlan = recordread.KindRangePlan
)

// stored are the family's kinds as the record store keeps them: the id
// prefix of the records jobs make, and which kind its job analyses.
var stored = map[string]recordstore.Kind{
	KindMoodboard: {Name: KindMoodboard, IDPrefix: "mb_", Analysed: true},
	KindBrandKit:  {Name: KindBrandKit, IDPrefix: "bk_"},
	KindFabric:    {Name: KindFabric, IDPrefix: "fb_"},
	KindRangePlan: {Name: KindRangePlan, IDPrefix: "rp_"},
}

// recordID is the id of the record of kind a job makes.
func recordID(kind, jobID string) string { return stored[kind].ID(jobID) }

// filePath is the relative address of a stored file, kept in records;
// readers answer it under the files base URL.
func filePath(id, ext string) string { return "/files/" + id + "." + ext }

// absolute answers a stored relative file address under base.
func absolute(base, url string) string { return recordstore.AbsoluteURL(base, url) }

// openRecord writes, at submit, the record of kind a job makes.
func openRecord(ctx context.Context, env tasks.Env, kind, name string, fields any) error {
	return stored[kind].Open(ctx, env, name, fields)
}

// completeRecord marks the job's record of kind ready with its fields and
// analysis (nil: none).
func completeRecord(ctx context.Context, kind string, fields, analysis any) error {
	return stored[kind].Complete(ctx, fields, analysis)
}

// handleOf is the handle of the record of kind the step's job makes, or
// nil in a catalogue example.
func handleOf(ctx context.Context, kind string) any { return stored[kind].HandleOf(ctx) }

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
		return nil, recordstore.NoRecord(field, ref)
	}
	r, status, reason, err := recordstore.Read(ctx, env, KindMoodboard, field, ref)
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
		return apierr.Newf(apierr.MoodboardNotReady, "The moodboard %s failed: %s Create it again with moodboard.create.",
			m.Handle, m.Reason).
			WithField(field)
	}
	return apierr.Newf(apierr.MoodboardNotReady, "The moodboard %s is still being analysed; read it at GET "+
		"/v1/files/%s and send again when its status is ready.", m.Handle, m.Handle).
		WithField(field)
}

// The brand kit as other families read it, and the looks it keeps
// (tasks/recordread).
type (
	// KitColour is one colour of a brand kit.
	KitColour = recordread.KitColour
	// KitLook is one look a brand kit keeps.
	KitLook = recordread.KitLook
	// KitMatch pairs a look's dominant colour with the kit colour nearest it.
	KitMatch = recordread.KitMatch
	// BrandKit is a brand kit as other tasks read it.
	BrandKit = recordread.BrandKit
	// Look is the analysis of one image of a moodboard.
	Look = recordread.Look
	// NamedColour is a measured colour with its colour_name.
	NamedColour = recordread.NamedColour
)

// brandKitFields is the stored object of a brand kit record.
type brandKitFields = recordread.BrandKitFields

// ReadBrandKit reads a brand kit (recordread.ReadBrandKit).
var ReadBrandKit = recordread.ReadBrandKit

// The fabric and the range plan as other families read them
// (tasks/recordread).
type (
	// Fabric is a fabric record as other tasks read it.
	Fabric = recordread.Fabric
	// FabricFields are a fabric record's fields.
	FabricFields = recordread.FabricFields
	// FabricFacts are what a fabric.create input states.
	FabricFacts = recordread.FabricFacts
	// Fibre is one line of a fabric's composition.
	Fibre = recordread.Fibre
	// RangePlan is a range plan as other tasks read it.
	RangePlan = recordread.RangePlan
	// RangePlanFields are a range plan record's fields.
	RangePlanFields = recordread.RangePlanFields
	// PlanItem is one item of a range plan.
	PlanItem = recordread.PlanItem
	// Money sums the value, cost and margin of items.
	Money = recordread.Money
	// TypeTotal sums the items of one garment type.
	TypeTotal = recordread.TypeTotal
	// DropTotal sums the items of one delivery drop.
	DropTotal = recordread.DropTotal
)

// ReadFabric reads a fabric (recordread.ReadFabric).
var ReadFabric = recordread.ReadFabric

// The values of a fabric's colour_source.
const (
	colourGiven    = recordread.ColourGiven
	colourMeasured = recordread.ColourMeasured
	colourNone     = recordread.ColourNone
)

// The library's fabrics are what recordread finds without a database.
func init() { recordread.CuratedFabric = curatedFabric }
