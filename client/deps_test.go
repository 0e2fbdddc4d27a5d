package client_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is this module's path, the prefix of its own packages.
const module = "github.com/taskplatform/taskplatform/"

// TestClientDependsOnWireTypesOnly keeps the SDK a customer imports small:
// it and the public packages it uses (each a module of its own, go.mod
// beside it) may import the standard library and each other, and nothing
// else — no database, ORM, Gin or Temporal package, and none of the
// server's own.
func TestClientDependsOnWireTypesOnly(t *testing.T) {
	public := []string{"client", "wire", "contract", "signer"}
	for _, pkg := range public {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.CommandContext(t.Context(), "go", "list", "-deps",
				"-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", module+pkg).CombinedOutput()
			require.NoError(t, err, "%s", out)
			for _, dep := range strings.Fields(string(out)) {
				own, ok := strings.CutPrefix(dep, module)
				require.True(t, ok && slices.Contains(public, own),
					"%s imports %s; the client's packages import only the standard library and %v", pkg, dep, public)
			}
		})
	}
}
