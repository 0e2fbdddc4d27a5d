// Package openapi writes the OpenAPI 3.1 documents from the route table: a
// small DSL for schemas (Object, Str, Enum, SchemaOf, which reads a Go
// answer type by reflection, with the API's Overrides), the Operation and
// Response each row of the table documents, and the document's assembly
// (NewDoc, AddRoute, AddTask with a task's own schemas, Pruned). It knows
// no handler: package api passes it the table's rows (Route) and the
// component schemas of its answer types, and serves the documents.
package openapi
