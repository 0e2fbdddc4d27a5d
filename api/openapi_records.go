package api

import (
	"reflect"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/tasks"
)

// recordSchemaName is the component schema of one record kind's read
// answer: MoodboardRecord for moodboard.
func recordSchemaName(kind string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(kind, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String() + "Record"
}

// addRecordKinds declares in doc's components what the served families'
// record kinds read as: RefKind, the handle kinds; one schema per record
// kind (the fields every record has, then the kind's own, typed as the
// family declares them); and Record, one of them by kind.
func addRecordKinds(doc oa, kinds recordKinds) {
	schemas := doc["components"].(oa)["schemas"].(oa)
	schemas["RefKind"] = openapi.Describe(openapi.Enum(kinds.refKinds()),
		"A handle's kind: art and file name stored files, the others records.")
	var oneOf []any
	mapping := oa{}
	for _, rk := range kinds.ordered {
		name := recordSchemaName(rk.Name)
		schemas[name] = recordKindSchema(rk)
		oneOf = append(oneOf, openapi.Ref(name))
		mapping[rk.Name] = "#/components/schemas/" + name
	}
	schemas["Record"] = oa{
		"description": "A record read by its handle: the fields every record has, then its kind's own.",
		"oneOf":       oneOf, "discriminator": oa{"propertyName": "kind", "mapping": mapping},
	}
}

// recordKindSchema is the read answer of a record of one kind.
func recordKindSchema(rk tasks.RecordKind) oa {
	common := openapi.ReadSchema(reflect.TypeFor[recordView]())
	props := oa{}
	for k, v := range common["properties"].(oa) {
		props[k] = v
	}
	props["kind"] = openapi.Describe(openapi.Enum([]string{rk.Name}), "The record's kind.")
	props["analysis"] = oa{"type": "null", "description": "Always null: the kind has no analysis."}
	if rk.Analysis != nil {
		props["analysis"] = openapi.Describe(
			openapi.Nullable(rk.Analysis),
			"The record's analysis once it is ready; null until then.",
		)
	}
	for name, s := range rk.Fields {
		props[name] = s
	}
	required := slices.Clone(common["required"].([]string))
	for _, name := range rk.Required {
		if !slices.Contains(required, name) {
			required = append(required, name)
		}
	}
	out := openapi.Object(props, required...)
	out["description"] = rk.Description
	return out
}
