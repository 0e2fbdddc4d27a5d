package tasks

import "reflect"

// NullSlices names, by JSON name, the slice fields of the types a family
// brings that the API serves as they are (a task's Docs, a Vocabulary) and
// that may be written null (a nil slice); every other slice or map field of
// them must be written as an array or object, never null. The API's
// OpenAPI document writes its schemas from this table, and the family
// conformance suite (taskstest) holds every family to it, so a family the
// suite passes is one the document accepts.
var NullSlices = map[reflect.Type][]string{
	reflect.TypeFor[Docs]():       {"compares", "related"},
	reflect.TypeFor[Vocabulary](): {"groups", "used_in"},
}
