package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/workflows"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
)

// TemporalCLI is the pinned CLI binary: TP_TEMPORAL_CLI or bin/temporal.
func TemporalCLI() (string, error) {
	if p := os.Getenv("TP_TEMPORAL_CLI"); p != "" {
		return p, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "bin", "temporal")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("the Temporal CLI is missing at %s: build it with `make bin/temporal` "+
			"(GOBIN=$PWD/bin go install github.com/temporalio/cli/cmd/temporal@v1.5.1); tests never download it", p)
	}
	return p, nil
}

// StartTemporal starts one dev server for a test package (call it from
// TestMain) with the job search attributes registered. It never downloads.
func StartTemporal() (*testsuite.DevServer, error) {
	return StartTemporalAt("", "")
}

// StartTemporalAt starts a dev server as StartTemporal does, listening on
// hostPort (empty: a free port) and persisted in dbFile (empty: in memory),
// so a test can stop it and start it again with its workflows kept.
func StartTemporalAt(hostPort, dbFile string) (*testsuite.DevServer, error) {
	return startTemporal(hostPort, dbFile, workflows.DevServerArgs())
}

// StartTemporalFIFO starts a dev server as StartTemporal does but without
// workflows.FairnessDynamicConfig: its task queues dispatch first in,
// first out, as before priority and fairness (a benchmark's baseline).
func StartTemporalFIFO() (*testsuite.DevServer, error) {
	return startTemporal("", "", nil)
}

func startTemporal(hostPort, dbFile string, extra []string) (*testsuite.DevServer, error) {
	cli, err := TemporalCLI()
	if err != nil {
		return nil, err
	}
	attrs := make([]temporal.SearchAttributeUpdate, 0, len(jobstart.SearchAttributes))
	for _, k := range jobstart.SearchAttributes {
		attrs = append(attrs, k.ValueSet(""))
	}
	return testsuite.StartDevServer(context.Background(), testsuite.DevServerOptions{
		ExistingPath:     cli,
		LogLevel:         "error",
		ClientOptions:    &client.Options{Namespace: "default", HostPort: hostPort},
		DBFilename:       dbFile,
		SearchAttributes: temporal.NewSearchAttributes(attrs...),
		ExtraArgs: append([]string{"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
			"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1"}, extra...),
	})
}
