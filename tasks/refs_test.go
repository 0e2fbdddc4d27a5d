package tasks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// refsDefinition takes a top-level image, a list of references and items
// whose objects name images of their own.
func refsDefinition() *Definition {
	ref := obj{"type": "string", "pattern": RefPattern, RefKeyword: "image"}
	item := obj{"type": "object", "properties": obj{
		"name":   obj{"type": "string"},
		"images": obj{"type": "array", RefKeyword: "image", "items": obj{"type": "string", "pattern": RefPattern}},
	}}
	return &Definition{InputSchema: MustJSON(ObjectSchema("refs", "refs", obj{
		"image":  ref,
		"name":   obj{"type": "string"},
		"looks":  obj{"type": "array", "items": obj{"type": "string"}},
		"items":  obj{"type": "array", "items": item},
		"extras": obj{"type": "array", RefKeyword: "image", "items": obj{"type": "string"}},
	}, nil, nil))}
}

func TestRefFieldsReachIntoArraysOfObjects(t *testing.T) {
	require.Equal(t, []string{"extras", "image", "items[].images"}, refsDefinition().RefFields())
}

func TestRefsNameEachNestedReferenceByItsPlace(t *testing.T) {
	in := map[string]any{
		"image":  "file:top",
		"extras": []any{"art:a", "https://example.com/b.png"},
		"items": []any{
			map[string]any{"name": "tee", "images": []any{"file:tee_1", "file:tee_2"}},
			map[string]any{"name": "no images"},
			map[string]any{"name": "dress", "images": []any{"file:dress"}},
		},
	}
	var got []Ref
	for _, f := range refsDefinition().RefFields() {
		got = append(got, Refs(in, f)...)
	}
	require.Equal(t, []Ref{
		{Field: "extras[0]", Ref: "art:a"}, {Field: "extras[1]", Ref: "https://example.com/b.png"},
		{Field: "image", Ref: "file:top"},
		{Field: "items[0].images[0]", Ref: "file:tee_1"}, {Field: "items[0].images[1]", Ref: "file:tee_2"},
		{Field: "items[2].images[0]", Ref: "file:dress"},
	}, got)
	require.Empty(t, Refs(map[string]any{"items": "not a list"}, "items[].images"))
}
