package api

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
	"github.com/stretchr/testify/require"
)

// TestGeneratedGoClientCompiles generates a Go client from the served
// document with oapi-codegen, as a customer would, and compiles it: no
// manual edits, and the job events declared under webhooks come out typed.
func TestGeneratedGoClientCompiles(t *testing.T) {
	t.Parallel()
	res := call(catalogueRouter(), "GET", "/v1/openapi.json", "")
	require.Equal(t, 200, res.code)
	spec, err := openapi3.NewLoader().LoadFromData(res.body)
	require.NoError(t, err, "oapi-codegen's loader reads the document")
	code, err := codegen.Generate(spec, codegen.Configuration{PackageName: "tpclient",
		Generate: codegen.GenerateOptions{Client: true, Models: true}})
	require.NoError(t, err)
	for _, want := range []string{"type WebhookJobSucceededJSONRequestBody", "func (c *Client) PatternGenerateSubmit(",
		"func (c *Client) JobRead("} {
		require.True(t, strings.Contains(code, want), "the generated client holds %q", want)
	}

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.go"), []byte(code), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"),
		[]byte("module example.test/tpclient\n\ngo 1.26\n\nrequire github.com/oapi-codegen/runtime v1.8.0\n"), 0o644))
	goCmd := func(args ...string) {
		cmd := exec.CommandContext(t.Context(), "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
	goCmd("mod", "tidy")
	goCmd("build", "./...")
}
