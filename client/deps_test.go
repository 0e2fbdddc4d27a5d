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
// it and the public packages it uses may import the standard library and
// each other, and nothing else — no database, ORM, Gin or Temporal package,
// and none of the server's own.
func TestClientDependsOnWireTypesOnly(t *testing.T) {
	public := []string{"client", "wire", "contract", "signer"}
	for _, pkg := range public {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.CommandContext(t.Context(), "go", "list", "-deps",
				"-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "../"+pkg).CombinedOutput()
			require.NoError(t, err, "%s", out)
			for _, dep := range strings.Fields(string(out)) {
				own, ok := strings.CutPrefix(dep, module)
				require.True(t, ok && slices.Contains(public, own),
					"%s imports %s; the client's packages import only the standard library and %v", pkg, dep, public)
			}
		})
	}
}

// TestOnlyTheBinaryImportsEveryTask keeps the task families at the edge:
// the packages that run and serve tasks (activities, catalogue, api, panel,
// worker) take a registry, and only a program — the binary, which passes
// tasks/all — and tests name every family.
func TestOnlyTheBinaryImportsEveryTask(t *testing.T) {
	const all = module + "tasks/all"
	out, err := exec.CommandContext(t.Context(), "go", "list",
		"-f", "{{.ImportPath}} {{.Name}} {{join .Deps \" \"}}", "../...").CombinedOutput()
	require.NoError(t, err, "%s", out)
	importers := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, name, deps := fields[0], fields[1], fields[2:]
		if !slices.Contains(deps, all) {
			continue
		}
		importers++
		require.True(t, name == "main" || pkg == all,
			"%s imports tasks/all; pass it a registry (tasks.Registry or catalogue.Catalogue) instead", pkg)
	}
	require.NotZero(t, importers, "the binary runs every task family")
}

// TestFamiliesReadRecordsThroughRecordread keeps the records family a
// family: another family reads a brand kit, fabric or range plan through
// tasks/recordread (and names colours through tasks/colour), so only the
// set of every task and tests import tasks/records itself.
func TestFamiliesReadRecordsThroughRecordread(t *testing.T) {
	const records, all = module + "tasks/records", module + "tasks/all"
	out, err := exec.CommandContext(t.Context(), "go", "list",
		"-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../tasks/...").CombinedOutput()
	require.NoError(t, err, "%s", out)
	readers := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		if pkg == records || !slices.Contains(imports, records) {
			continue
		}
		readers++
		require.Equal(t, all, pkg, "%s imports tasks/records; read its records through tasks/recordread", pkg)
	}
	require.Equal(t, 1, readers, "tasks/all registers the records family")
}

// TestHTTPReachesTheWorkflowsThroughUseCasesOnly keeps the import
// directions of the design: HTTP (api) and the use-case doors it calls
// (submit, cancel, events, spendlimits, batchstart, jobstart) depend, directly or not,
// on neither the workflow nor the activity package: a use case reaches a
// job's workflow by starting, updating or cancelling it through a narrow
// Temporal interface, and what the workers run stays theirs.
func TestHTTPReachesTheWorkflowsThroughUseCasesOnly(t *testing.T) {
	forbidden := []string{module + "activities", module + "workflows"}
	for _, pkg := range []string{"api", "submit", "cancel", "events", "spendlimits", "batchstart", "jobstart"} {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.CommandContext(t.Context(), "go", "list", "-deps",
				"-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "../"+pkg).CombinedOutput()
			require.NoError(t, err, "%s", out)
			deps := strings.Fields(string(out))
			require.Contains(t, deps, module+pkg, "go list read the package")
			for _, f := range forbidden {
				require.NotContains(t, deps, f, "%s depends on %s; call a use case's door instead", pkg, f)
			}
		})
	}
}
