package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// devEnvFile is the shell file dev writes in its data dir, so the README's
// commands run as written after `. .data/dev.env`.
const devEnvFile = "dev.env"

// writeDevEnv writes dev.env: the dev API key as KEY (the README's curls)
// and TP_API_KEY, the API base as TP_BASE_URL (the user CLI), and where the
// stack keeps its state and reaches Temporal (TP_DATA_DIR, TP_DATABASE_URL
// when set, TP_TEMPORAL_ADDRESS, TP_TEMPORAL_NAMESPACE, and the Temporal
// CLI's own TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE), so `admin …` and
// `bin/temporal schedule trigger` reach this stack on any port.
func writeDevEnv(cfg config, key string) error {
	vars := [][2]string{
		{"KEY", key},
		{"TP_API_KEY", key},
		{"TP_BASE_URL", cfg.BaseURL},
		{"TP_DATA_DIR", absPath(cfg.DataDir)},
		{"TP_TEMPORAL_ADDRESS", cfg.TemporalAddress},
		{"TP_TEMPORAL_NAMESPACE", cfg.TemporalNamespace},
		{"TEMPORAL_ADDRESS", cfg.TemporalAddress},
		{"TEMPORAL_NAMESPACE", cfg.TemporalNamespace},
	}
	if cfg.DatabaseURL != "" {
		vars = append(vars, [2]string{"TP_DATABASE_URL", cfg.DatabaseURL})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by `taskplatform dev` on every start; load it with `. %s`.\n",
		filepath.Join(cfg.DataDir, devEnvFile))
	b.WriteString("# Unset TP_TEMPORAL_ADDRESS before starting dev again from this shell,\n")
	b.WriteString("# or dev uses that Temporal instead of starting its own.\n")
	for _, v := range vars {
		fmt.Fprintf(&b, "export %s=%s\n", v[0], shellQuote(v[1]))
	}
	return os.WriteFile(filepath.Join(cfg.DataDir, devEnvFile), []byte(b.String()), 0o600)
}

// shellQuote quotes s for a POSIX shell: single quotes, with any single
// quote inside closed, escaped and reopened.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
