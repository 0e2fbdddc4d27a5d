package testenv

import (
	"os"
	"path/filepath"
)

// GuidePages are the project's documents a newcomer reads, in reading
// order: the README, then each page of docs/ it links. Tests that keep the
// documents true (their commands run, their tables name what exists) read
// them from here, so a page moved or added is checked without another list.
var GuidePages = []string{
	"README.md",
	"docs/architecture.md",
	"docs/clients.md",
	"docs/webhooks.md",
	"docs/operations.md",
	"docs/engines.md",
	"docs/performance.md",
	"docs/gallery.md",
	"docs/panel.md",
	"docs/contributing.md",
	"docs/add-a-task.md",
	"docs/add-an-endpoint.md",
}

// GuidePage is one document of the guide: its path from the repository's
// root and its text.
type GuidePage struct {
	Path string
	Text string
}

// Guide reads every page of GuidePages.
func Guide() ([]GuidePage, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	pages := make([]GuidePage, 0, len(GuidePages))
	for _, p := range GuidePages {
		raw, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			return nil, err
		}
		pages = append(pages, GuidePage{Path: p, Text: string(raw)})
	}
	return pages, nil
}

// GuidePageText is one page's text, by its path from the repository's root.
func GuidePageText(path string) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	raw, err := os.ReadFile(filepath.Join(root, path))
	return string(raw), err
}
