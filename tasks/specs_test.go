package tasks_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

func TestSpecTitlesEveryKey(t *testing.T) {
	t.Parallel()
	for _, key := range tasks.SpecKeys {
		require.NotEmpty(t, tasks.Spec(key, "x").Title, key)
	}
	require.Empty(t, tasks.Spec("no_such_key", "x").Title)
}

func TestTermsRows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		terms tasks.Terms
		want  []tasks.SpecRow
	}{
		{"defaults read none", tasks.Terms{CommercialUse: "Allowed.", Reproducibility: "Deterministic."},
			[]tasks.SpecRow{
				{Key: "watermark", Title: "Watermark", Text: "None."},
				{Key: "commercial_use", Title: "Commercial use", Text: "Allowed."},
				{Key: "content_checks", Title: "Content checks", Text: "None."},
				{Key: "reproducibility", Title: "Reproducibility", Text: "Deterministic."},
			}},
		{"every row stated", tasks.Terms{CommercialUse: "Allowed.", Reproducibility: "Seeded.",
			ContentChecks: "Prompts are screened.", Watermark: "A corner mark."},
			[]tasks.SpecRow{
				{Key: "watermark", Title: "Watermark", Text: "A corner mark."},
				{Key: "commercial_use", Title: "Commercial use", Text: "Allowed."},
				{Key: "content_checks", Title: "Content checks", Text: "Prompts are screened."},
				{Key: "reproducibility", Title: "Reproducibility", Text: "Seeded."},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.terms.Rows())
		})
	}
}
