package panel

import (
	"testing"

	"github.com/stretchr/testify/require"

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
