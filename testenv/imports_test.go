package testenv_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"
)

// module is the server module's path, the prefix of its own packages.
const module = "github.com/taskplatform/taskplatform/"

// sdk are the modules of the Go SDK, each in the folder of its name: the
// client and the packages it imports.
var sdk = []string{"client", "contract", "signer", "wire"}

// TestSDKModulesStandAlone keeps a user's go get of the client small: each
// SDK module requires only the others (at the one version they are tagged
// with, beside the server's) and testify for its tests, and finds the
// others in this checkout; the server's go.mod requires them at that
// version and builds them from their folders.
func TestSDKModulesStandAlone(t *testing.T) {
	root := readMod(t, "../go.mod")
	version := ""
	for _, m := range sdk {
		t.Run(m, func(t *testing.T) {
			f := readMod(t, "../"+m+"/go.mod")
			require.Equal(t, module+m, f.Module.Mod.Path)
			for _, r := range f.Require {
				own, ok := strings.CutPrefix(r.Mod.Path, module)
				if !ok {
					require.Contains(t, []string{"github.com/stretchr/testify", "go.yaml.in/yaml/v3",
						"github.com/davecgh/go-spew", "github.com/pmezard/go-difflib"}, r.Mod.Path,
						"%s/go.mod requires %s: the SDK needs only the standard library (and testify for its tests)", m,
						r.Mod.Path)
					continue
				}
				require.Contains(t, sdk, own)
				require.Equal(t, "../"+own, replaced(f, r.Mod.Path), "%s finds %s in this checkout", m, own)
				if version == "" {
					version = r.Mod.Version
				}
				require.Equal(t, version, r.Mod.Version, "the SDK modules are versioned together")
			}
			require.Equal(t, "./"+m, replaced(root, module+m), "the server builds %s from its folder", m)
			at := slices.IndexFunc(root.Require, func(r *modfile.Require) bool { return r.Mod.Path == module+m })
			require.NotEqual(t, -1, at, "the server requires %s", m)
			if version != "" {
				require.Equal(t, version, root.Require[at].Mod.Version, "the server requires %s at the SDK's version", m)
			}
		})
	}
}

func readMod(t *testing.T, path string) *modfile.File {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := modfile.Parse(path, raw, nil)
	require.NoError(t, err)
	return f
}

// replaced is where f's replace directive sends path, or "".
func replaced(f *modfile.File, path string) string {
	for _, r := range f.Replace {
		if r.Old.Path == path {
			return r.New.Path
		}
	}
	return ""
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
