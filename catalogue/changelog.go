package catalogue

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"slices"
	"time"

	"github.com/taskplatform/taskplatform/contract"
)

// ChangeKind is the kind of a changelog entry.
type ChangeKind string

// The kinds of changelog entries.
const (
	ChangeAdded      ChangeKind = "added"
	ChangeDeprecated ChangeKind = "deprecated"
	ChangeRemoved    ChangeKind = "removed"
	ChangeChanged    ChangeKind = "changed"
)

// ChangeKinds lists every kind, as the changelog's vocabulary.
var ChangeKinds = []ChangeKind{ChangeAdded, ChangeDeprecated, ChangeRemoved, ChangeChanged}

// ChangelogEntry is one entry of GET /v1/changelog. Task entries name the
// task (and its replacement); "changed" entries name the dated contract
// version (Service-Version) that makes the change.
type ChangelogEntry struct {
	Date        string     `json:"date"`
	Kind        ChangeKind `json:"kind"`
	Task        string     `json:"task,omitempty"`
	Replacement string     `json:"replacement,omitempty"`
	// Summary says what changed, in a sentence.
	Summary   string `json:"summary"`
	Migration string `json:"migration"`
	// RemovalDate is the announced removal of a deprecated task.
	RemovalDate string `json:"removal_date,omitempty"`
	Version     string `json:"version,omitempty"`
}

// Key is the entry's stable identity: the cursor of the changelog's pages
// and the id of its Atom entry.
func (e ChangelogEntry) Key() string {
	return e.Date + "/" + string(e.Kind) + "/" + cmp.Or(e.Task, e.Version)
}

// Changelog is every entry, newest first, written from the one source of
// each: the task definitions' life cycle (AddedOn, DeprecatedOn, RemovedOn
// with ReplacedBy and Migration) and the dated contract versions
// (contract.VersionHistory). Entries of one day keep a fixed order.
func (c *Catalogue) Changelog() []ChangelogEntry {
	var out []ChangelogEntry
	for i, v := range contract.VersionHistory {
		if i == 0 {
			continue // the first version changes nothing
		}
		out = append(
			out,
			ChangelogEntry{
				Date:      v.Date,
				Kind:      ChangeChanged,
				Version:   v.Date,
				Summary:   v.Change,
				Migration: v.Migration,
			},
		)
	}
	for _, d := range c.reg.All() {
		if d.AddedOn != "" {
			out = append(out, ChangelogEntry{Date: d.AddedOn, Kind: ChangeAdded, Task: d.Name,
				Summary: fmt.Sprintf(
					"%s joined the catalogue: %s",
					d.Name,
					d.Description,
				), Migration: "Nothing to migrate; a new task."})
		}
		if d.DeprecatedOn != "" {
			out = append(
				out,
				ChangelogEntry{Date: d.DeprecatedOn, Kind: ChangeDeprecated, Task: d.Name, Replacement: d.ReplacedBy,
					Summary: fmt.Sprintf(
						"%s is deprecated; use %s. It keeps working until its removal is announced here.",
						d.Name,
						d.ReplacedBy,
					),
					Migration: d.Migration, RemovalDate: d.RemovalOn},
			)
		}
		if d.Removed && d.RemovedOn != "" {
			out = append(
				out,
				ChangelogEntry{Date: d.RemovedOn, Kind: ChangeRemoved, Task: d.Name, Replacement: d.ReplacedBy,
					Summary:   fmt.Sprintf("%s was removed; every call naming it answers 410 task_removed.", d.Name),
					Migration: d.Migration},
			)
		}
	}
	order := func(k ChangeKind) int { return slices.Index(ChangeKinds, k) }
	slices.SortStableFunc(out, func(a, b ChangelogEntry) int {
		return cmp.Or(
			cmp.Compare(b.Date, a.Date),
			cmp.Compare(order(b.Kind), order(a.Kind)),
			cmp.Compare(a.Task, b.Task),
		)
	})
	return out
}

// atomFeed is an Atom 1.0 feed (RFC 4287).
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomPerson  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title    string       `xml:"title"`
	ID       string       `xml:"id"`
	Updated  string       `xml:"updated"`
	Category atomCategory `xml:"category"`
	Summary  string       `xml:"summary"`
	Content  atomText     `xml:"content"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

// ChangelogAtom is the changelog as an Atom feed (GET /v1/changelog.atom),
// newest first; baseURL prefixes its links.
func (c *Catalogue) ChangelogAtom(baseURL string) ([]byte, error) {
	entries := c.Changelog()
	f := atomFeed{Title: "taskplatform changelog", ID: baseURL + "/v1/changelog",
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: baseURL + "/v1/changelog.atom"},
			{Rel: "alternate", Type: "application/json", Href: baseURL + "/v1/changelog"}},
		Author: atomPerson{Name: "taskplatform"}, Updated: atomDate(contract.FirstVersion)}
	if len(entries) > 0 {
		f.Updated = atomDate(entries[0].Date)
	}
	for _, e := range entries {
		title := string(e.Kind) + ": " + cmp.Or(e.Task, "Service-Version "+e.Version)
		text := e.Summary + "\n\nMigration: " + e.Migration
		if e.Replacement != "" {
			text += "\nReplacement: " + e.Replacement
		}
		if e.RemovalDate != "" {
			text += "\nRemoval: " + e.RemovalDate
		}
		f.Entries = append(
			f.Entries,
			atomEntry{Title: title, ID: baseURL + "/v1/changelog#" + e.Key(), Updated: atomDate(e.Date),
				Category: atomCategory{
					Term: string(e.Kind),
				}, Summary: e.Summary, Content: atomText{Type: "text", Text: text}},
		)
	}
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), out...), nil
}

// atomDate writes a YYYY-MM-DD date as an RFC 3339 time at midnight UTC.
func atomDate(d string) string {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return t.UTC().Format(time.RFC3339)
}
