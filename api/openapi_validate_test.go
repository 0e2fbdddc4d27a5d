package api

import (
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
)

// TestCatalogueOpenAPIValidates loads every served OpenAPI document with a
// standard OpenAPI 3.1 validator (kin-openapi), the way an SDK generator
// would read it.
func TestCatalogueOpenAPIValidates(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	paths := []string{"/v1/openapi.json"}
	for _, d := range servedTasks().Runnable() {
		paths = append(paths, "/v1/tasks/"+d.Name+"/openapi.json")
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			res := call(r, "GET", p, "")
			require.Equal(t, 200, res.code)
			loader := openapi3.NewLoader()
			doc, err := loader.LoadFromData(res.body)
			require.NoError(t, err)
			require.True(t, doc.IsOpenAPI31OrLater(), "served as OpenAPI 3.1")
			require.NoError(t, doc.Validate(context.Background()))
		})
	}
}
