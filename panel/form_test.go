package panel

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// The run form offers a vocabulary field's values, not the aliases its
// schema also accepts.
func TestFormOffersValuesNotAliases(t *testing.T) {
	d, err := all.Registry().Lookup("pattern.generate")
	require.NoError(t, err)
	fields, err := formFields(d, nil)
	require.NoError(t, err)
	for _, f := range fields {
		if f.Name == "kind" {
			require.Equal(
				t,
				[]string{"stripes", "checks", "dots", "chevron", "waves", "diamonds", "houndstooth", "plaid", "gingham",
					"buffalo_check", "windowpane"},
				f.Options,
			)
			return
		}
	}
	t.Fatal("pattern.generate has no kind field")
}

// Every runnable task's form puts its variant field first, marks every
// field another variant does not use, and offers a picker for every field
// that takes a handle of a kind the service lists.
func TestEveryFormPicksHandlesAndLeadsWithItsVariant(t *testing.T) {
	reg := all.Registry()
	known := api.RefKinds(reg)
	for _, d := range reg.Runnable() {
		t.Run(d.Name, func(t *testing.T) {
			fields, err := formFields(d, known)
			require.NoError(t, err)
			var doc struct {
				Properties map[string]schemaProp `json:"properties"`
			}
			require.NoError(t, json.Unmarshal(d.InputSchema, &doc))
			require.Len(t, fields, len(doc.Properties), "a field per property")
			if d.Variant != nil {
				require.Equal(t, d.Variant.Field, fields[0].Name, "the variant field leads")
			}
			for _, f := range fields {
				p := doc.Properties[f.Name]
				pattern := p.Pattern
				if p.Items != nil {
					pattern = p.Items.Pattern
				}
				for _, alt := range p.OneOf {
					if alt.Items != nil {
						pattern = alt.Items.Pattern
					}
				}
				if kinds := kindsOf(pattern, known); len(kinds) > 0 {
					require.Contains(t, []string{"ref", "refs", "record", "records"}, f.Kind, "%s takes %v", f.Name, kinds)
					require.Equal(t, kinds, f.RefKinds, f.Name)
				}
				if d.Variant != nil {
					require.Equal(t, d.Variant.Only[f.Name], f.Variants, f.Name)
				}
			}
		})
	}
}

// A price reads as people say it.
func TestPriceLabels(t *testing.T) {
	option := "resolution"
	tests := []struct {
		pricing tasks.Pricing
		want    string
	}{
		{tasks.Pricing{CreditType: contract.CreditService, PerOutput: 1}, "1 credit per sheet"},
		{tasks.Pricing{CreditType: contract.CreditService, PerOutput: 3}, "3 credits per sheet"},
		{tasks.Pricing{CreditType: contract.CreditService}, "free"},
		{tasks.Pricing{CreditType: contract.CreditModel, PerOutput: 10}, "10 model credits per sheet"},
		{tasks.Pricing{CreditType: contract.CreditService, Option: option,
			ByOption: []tasks.OptionPrice{{Value: "1024", Credits: 2}, {Value: "512", Credits: 1}, {Value: "2048", Credits: 4}}},
			"1–4 credits per sheet, by resolution"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, priceLabel(&tasks.Definition{Name: "x.y", Unit: "sheet", Pricing: tc.pricing}))
	}
}
