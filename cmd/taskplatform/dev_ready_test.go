package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/records"
)

// TestDevReadyListsTheLibraries starts dev on a fresh data dir: the moment
// /readyz answers 200, the whole curated library and the whole photoshoots
// library are listed, so the served examples that name them run at once.
func TestDevReadyListsTheLibraries(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	dev := startReady(t, dataDir, "")
	raw, err := os.ReadFile(filepath.Join(dataDir, "dev-api-key"))
	require.NoError(t, err)
	key := strings.TrimSpace(string(raw))

	want := map[string][]string{}
	for kind, handles := range records.CuratedHandles() {
		want[kind+"?curated=true&limit=100"] = handles
	}
	for kind, handles := range photoshoot.LibraryHandles() {
		want[kind+"?limit=100"] = handles
	}
	require.Len(t, want, 6, "moodboards, fabrics, backgrounds, models, poses and pose presets")
	for query, handles := range want {
		req, err := http.NewRequest(http.MethodGet, dev.base+"/v1/refs/"+query, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Key "+key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var page struct {
			Items []struct {
				File string `json:"file"`
			} `json:"items"`
		}
		require.Equal(t, http.StatusOK, res.StatusCode, "GET /v1/refs/%s", query)
		require.NoError(t, json.NewDecoder(res.Body).Decode(&page))
		res.Body.Close()
		var got []string
		for _, it := range page.Items {
			got = append(got, it.File)
		}
		require.ElementsMatch(
			t,
			handles,
			got,
			"GET /v1/refs/%s lists the whole library once /readyz answers 200",
			query,
		)
	}
}
