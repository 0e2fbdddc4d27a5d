package engines_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
)

// TestEveryWorkedConfigurationLoadsAndPassesTheStartUpChecks: each
// docs/engines/*.yaml, an operator's TP_ENGINES as published, is read by
// the real loader (unknown keys are errors) and assembled with every
// family: every engine, route and declared task in it is served, none
// refused.
func TestEveryWorkedConfigurationLoadsAndPassesTheStartUpChecks(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "engines", "*.yaml"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 4, "sdxl, cutout, upscale, onmodel")
	srv := fake(t, cogtest.Options{})
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), filepath.Base(f))
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), "http://127.0.0.1:5000",
				srv.URL)), 0o600))
			cfg, err := engines.Load(path)
			require.NoError(t, err)
			require.NotEmpty(t, cfg.Engines)
			// The service's webhook route, as the api gives async engines.
			r, logs := assemble(t, cfg, modeClients(t, "async-service"))
			require.Zero(t, logs.FilterMessageSnippet("refused").Len(), "%v", logs.All())
			for name := range cfg.Routes {
				d, err := r.Lookup(name)
				require.NoError(t, err)
				require.NotEmpty(t, d.Runner.(interface{ EngineName() string }).EngineName(), name)
			}
			for _, tc := range cfg.Tasks {
				_, err := r.Lookup(tc.Name)
				require.NoError(t, err, tc.Name)
			}
		})
	}
}
