package tasks_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

func TestRecordKindDeclarations(t *testing.T) {
	t.Parallel()
	pages := map[string]any{"type": "integer"}
	book := func(edit func(*tasks.RecordKind)) tasks.RecordKind {
		k := tasks.RecordKind{Name: "swatch_book", Fields: map[string]any{"pages": pages, "base": pages},
			Required: []string{"pages"}}
		edit(&k)
		return k
	}
	tests := []struct {
		name  string
		kinds []tasks.RecordKind
		err   string
	}{
		{"a whole declaration", []tasks.RecordKind{book(func(k *tasks.RecordKind) {
			k.Listing = tasks.RecordListing{Base: true, Item: map[string]string{"gender": "pages"}}
		})}, ""},
		{"a name twice", []tasks.RecordKind{book(func(*tasks.RecordKind) {}), book(func(*tasks.RecordKind) {})},
			"registered twice"},
		{"a file kind's name", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Name = "art" })}, "not art or file"},
		{"an upper-case name", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Name = "Book" })}, "lower case"},
		{"a common field", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Fields["status"] = pages })},
			"one every record has"},
		{"a field without a schema", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Fields["mill"] = "text" })},
			"no schema object"},
		{"required but undeclared", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Required = []string{"x"} })},
			"not among its fields"},
		{"outputs undeclared", []tasks.RecordKind{book(func(k *tasks.RecordKind) { k.Outputs = "images" })},
			"outputs field images"},
		{"an unknown item field", []tasks.RecordKind{book(func(k *tasks.RecordKind) {
			k.Listing.Item = map[string]string{"colour": "pages"}
		})}, "not a reference item field"},
		{"a base listing without base", []tasks.RecordKind{book(func(k *tasks.RecordKind) {
			delete(k.Fields, "base")
			k.Listing.Base = true
		})}, "needs a base field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := tasks.NewRegistry()
			err := reg.Add(tasks.Family{Name: "books", Records: tt.kinds})
			if tt.err == "" {
				require.NoError(t, err)
				k, ok := reg.RecordKind("swatch_book")
				require.True(t, ok)
				require.Equal(t, tt.kinds[0].Name, k.Name)
				return
			}
			require.ErrorContains(t, err, tt.err)
			require.Empty(t, reg.RecordKinds(), "a refused family adds nothing")
		})
	}
}
