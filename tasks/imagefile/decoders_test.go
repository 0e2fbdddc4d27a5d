package imagefile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// decoders are the functions that decode pixels, by import path: only
// this package may call them, after the pixel budget's check.
var decoders = map[string][]string{
	"image":                             {"Decode"},
	"image/png":                         {"Decode"},
	"image/jpeg":                        {"Decode"},
	"image/gif":                         {"Decode", "DecodeAll"},
	"golang.org/x/image/webp":           {"Decode"},
	"golang.org/x/image/bmp":            {"Decode"},
	"golang.org/x/image/tiff":           {"Decode"},
	"github.com/disintegration/imaging": {"Decode", "Open"},
}

// TestNoImageIsDecodedOutsideTheBudget walks the service's source (tests
// aside) and finds no call of an image decoder outside this package: every
// image a step reads goes through the pixel budget.
func TestNoImageIsDecodedOutsideTheBudget(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	var found []string
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root &&
				(strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == here {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string]string{} // local name → import path, for the decoder packages
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if _, ok := decoders[p]; !ok {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			if p, ok := names[pkg.Name]; ok {
				for _, fn := range decoders[p] {
					if sel.Sel.Name == fn {
						found = append(found, fset.Position(sel.Pos()).String()+": "+p+"."+fn)
					}
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, found, "decode images with tasks.LoadImage, tasks.ReduceImage or imagefile.Decode, "+
		"which check the pixel budget first")
}
