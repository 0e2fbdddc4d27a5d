package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// devEnvFile is the shell file dev writes in its data dir, so the README's
// commands run as written after `. .data/dev.env`.
const devEnvFile = "dev.env"

// writeDevEnv writes dev.env: the dev API key as KEY (the README's curls)
// and TP_API_KEY, and the API base as TP_BASE_URL (the user CLI).
func writeDevEnv(dataDir, key, baseURL string) error {
	body := fmt.Sprintf(
		"# Written by `taskplatform dev` on every start; load it with `. %s`.\nexport KEY=%s\nexport TP_API_KEY=%s\nexport TP_BASE_URL=%s\n",
		filepath.Join(dataDir, devEnvFile),
		key,
		key,
		baseURL,
	)
	return os.WriteFile(filepath.Join(dataDir, devEnvFile), []byte(body), 0o600)
}
