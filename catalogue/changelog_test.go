package catalogue_test

import (
	"context"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

func TestChangelogFromDefinitions(t *testing.T) {
	t.Parallel()
	log := served().Changelog()
	byKey := map[string]catalogue.ChangelogEntry{}
	for i, e := range log {
		byKey[e.Key()] = e
		if i > 0 {
			require.GreaterOrEqual(t, log[i-1].Date, e.Date, "newest first")
		}
		require.NotEmpty(t, e.Migration, e.Key())
	}
	stripes := byKey["2026-09-29/deprecated/pattern.stripes"]
	require.Equal(t, "pattern.generate", stripes.Replacement)
	require.Contains(t, stripes.Migration, `"kind": "stripes"`)
	require.Equal(t, "pattern.generate", byKey["2026-09-29/removed/pattern.legacy"].Replacement)
	// The current version is the spec's; the changelog names what the
	// older one does differently.
	require.Equal(t, "2026-09-29", contract.CurrentVersion)
	changed := byKey["2026-09-29/changed/2026-09-29"]
	require.Equal(t, "2026-09-29", changed.Version)
	require.Contains(t, changed.Summary, "required and balance at its top level")
	require.Contains(t, changed.Summary, "Under 2026-06-30 they are in ctx only")
	require.Contains(t, changed.Migration, "error.ctx.required")
	require.NotContains(t, byKey, "2026-06-30/changed/2026-06-30", "the first version changes nothing")
}

// Deprecating a task in code is what writes its entry; a deprecated task
// without its date, replacement or migration step does not register.
func TestChangelogDeprecatingInCode(t *testing.T) {
	t.Parallel()
	schema := tasks.MustJSON(tasks.ObjectSchema("x", "", map[string]any{}, nil, nil))
	mk := func(name string) *tasks.Definition {
		return &tasks.Definition{
			Name:        name,
			Category:    tasks.CategoryDesignGeneration,
			InputSchema: schema,
			Runner:      nopRunner{},
		}
	}
	old := mk("x.old")
	old.Status, old.ReplacedBy = "deprecated", "x.new"
	require.Error(t, tasks.NewRegistry().Add(tasks.Family{Name: "x", Tasks: []*tasks.Definition{old}}))
	old.DeprecatedOn, old.Migration, old.RemovalOn = "2027-01-04", "Call x.new.", "2027-04-01"
	added := mk("x.new")
	added.AddedOn = "2027-01-04"
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(tasks.Family{Name: "x", Tasks: []*tasks.Definition{old, added}}))
	var mine []catalogue.ChangelogEntry
	for _, e := range catalogue.New(r).Changelog() {
		if e.Task != "" {
			mine = append(mine, e)
		}
	}
	require.Equal(t, []catalogue.ChangelogEntry{
		{
			Date:        "2027-01-04",
			Kind:        catalogue.ChangeDeprecated,
			Task:        "x.old",
			Replacement: "x.new",
			Migration:   "Call x.new.",
			RemovalDate: "2027-04-01",
			Summary:     mine[0].Summary,
		},
		{
			Date:      "2027-01-04",
			Kind:      catalogue.ChangeAdded,
			Task:      "x.new",
			Migration: mine[1].Migration,
			Summary:   mine[1].Summary,
		},
	}, mine)
}

func TestChangelogAtom(t *testing.T) {
	t.Parallel()
	raw, err := served().ChangelogAtom("https://api.example.test")
	require.NoError(t, err)
	var feed struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		Updated string   `xml:"updated"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
		} `xml:"entry"`
	}
	require.NoError(t, xml.Unmarshal(raw, &feed))
	require.Len(t, feed.Entries, len(served().Changelog()))
	require.Equal(t, feed.Entries[0].Updated, feed.Updated)
	require.Contains(t, string(raw), "deprecated: pattern.stripes")
	require.Contains(t, string(raw), "https://api.example.test/v1/changelog#2026-09-29/deprecated/pattern.stripes")
}

type nopRunner struct{}

func (nopRunner) Plan(tasks.Input) tasks.Plan { return tasks.Plan{Steps: 1} }
func (nopRunner) Step(context.Context, tasks.Input, int) (tasks.Output, error) {
	return tasks.Output{}, nil
}
