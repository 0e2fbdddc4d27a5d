package tasks

import (
	"fmt"
	"regexp"
	"slices"
)

// RecordKind is a kind of record a family keeps: records its jobs make (a
// moodboard, a photoshoot) or a curated library the service ships (a
// background). Every kind is read by its handle <Name>:<id> at
// GET /v1/files/{ref} and listed at GET /v1/refs/{Name}; the API serves and
// documents each registered kind from this declaration, with no code of
// its own. The fields every record has (file, kind, name, url, status,
// reason, curated, job_id, analysis, created_at, updated_at, deletable) are
// the API's; the kind's own fields come from the record's stored fields.
type RecordKind struct {
	// Name is the handle's kind, such as moodboard: lower case letters,
	// digits and underscores.
	Name string
	// Description says what a record of the kind is, for the documents.
	Description string
	// Fields are the JSON Schemas of the kind's own fields by name, written
	// beside the common ones in a record's read answer. A stored field with
	// no value ("") reads null.
	Fields map[string]any
	// Required lists the Fields every record of the kind has.
	Required []string
	// Analysis is the JSON Schema of the kind's analysis, present once the
	// record is ready; nil when the kind has none (analysis reads null).
	Analysis map[string]any
	// Outputs names a field that lists the handles (art:<id>) of the files
	// the record's job delivered so far, such as a photoshoot's images;
	// empty when the read shows none.
	Outputs string
	// Listing is what GET /v1/refs/{Name} lists and the filters it takes.
	Listing RecordListing
}

// RecordListing says what GET /v1/refs/{kind} lists for a record kind and
// how its reference items read.
type RecordListing struct {
	// Library lists the service's curated records only (the photoshoots
	// library's backgrounds and poses); accounts make none.
	Library bool
	// WithLibrary lists the curated records beside the account's own (base
	// models beside an account's saved styles).
	WithLibrary bool
	// Curated takes curated=true, listing the curated records instead of
	// the account's.
	Curated bool
	// Search takes q, keeping the records whose name contains it.
	Search bool
	// Base takes base=<kind>:<id>, keeping the records whose base field
	// names that record (a base model's saved styles).
	Base bool
	// Unnamed marks records that have no name: their items' name is null.
	Unnamed bool
	// Item fills reference item fields (one of ItemFields) from the
	// record's stored fields, by name: {"gender": "gender"}.
	Item map[string]string
}

// ItemFields are the reference item fields a RecordListing's Item may
// fill from a record's fields.
var ItemFields = []string{"kind", "gender", "base"}

// RecordCommonFields are the fields of every record's read answer; a kind's
// own fields take other names.
var RecordCommonFields = []string{
	"file", "kind", "name", "url", "status", "reason", "curated", "job_id", "analysis", "created_at", "updated_at",
	"deletable",
}

// FileKinds are the handle kinds of stored files (art:, file:); no record
// kind takes them.
var FileKinds = []string{"art", "file"}

var recordKindName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// check says what is wrong with the kind's declaration, if anything.
func (k RecordKind) check() error {
	if !recordKindName.MatchString(k.Name) || slices.Contains(FileKinds, k.Name) {
		return fmt.Errorf("record kind %q: a name is lower case letters, digits and _, not art or file", k.Name)
	}
	for name, s := range k.Fields {
		if slices.Contains(RecordCommonFields, name) {
			return fmt.Errorf("record kind %s: field %s is one every record has", k.Name, name)
		}
		if _, ok := s.(map[string]any); !ok {
			return fmt.Errorf("record kind %s: field %s has no schema object", k.Name, name)
		}
	}
	for _, name := range k.Required {
		if _, ok := k.Fields[name]; !ok {
			return fmt.Errorf("record kind %s: required field %s is not among its fields", k.Name, name)
		}
	}
	if _, ok := k.Fields[k.Outputs]; k.Outputs != "" && !ok {
		return fmt.Errorf("record kind %s: outputs field %s is not among its fields", k.Name, k.Outputs)
	}
	for item, field := range k.Listing.Item {
		if !slices.Contains(ItemFields, item) {
			return fmt.Errorf("record kind %s: %s is not a reference item field", k.Name, item)
		}
		if _, ok := k.Fields[field]; !ok {
			return fmt.Errorf("record kind %s: item field %s shows %s, not among its fields", k.Name, item, field)
		}
	}
	if k.Listing.Base {
		if _, ok := k.Fields["base"]; !ok {
			return fmt.Errorf("record kind %s: a listing by base needs a base field", k.Name)
		}
	}
	return nil
}

// RecordKinds returns the families' record kinds in the order they were
// added.
func (r *Registry) RecordKinds() []RecordKind {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.records)
}

// RecordKind returns the registered record kind of a name.
func (r *Registry) RecordKind(name string) (RecordKind, bool) {
	for _, k := range r.RecordKinds() {
		if k.Name == name {
			return k, true
		}
	}
	return RecordKind{}, false
}

// HandlePattern is the schema pattern of a handle of a record kind,
// <kind>:<id>, for a task input that takes one.
func HandlePattern(kind string) string { return `^` + kind + `:[A-Za-z0-9_-]{1,64}$` }
