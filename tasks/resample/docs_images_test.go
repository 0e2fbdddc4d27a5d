package resample

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// TestDocsImages draws the README's before/after picture of
// photoshoot.upscale from the test set: each row a crop of an original
// taken down 4×, then that small image enlarged 4× by nearest neighbour
// (its pixels as they are), by Lanczos and by Upscale. DOCS_IMAGES=dir
// writes it there (make docs-images); otherwise it is drawn and checked in
// a temporary folder.
func TestDocsImages(t *testing.T) {
	dir := os.Getenv("DOCS_IMAGES")
	if dir == "" {
		dir = t.TempDir()
	}
	const f, crop = 4, 176
	origs := originals()
	rows := []struct {
		name string
		at   image.Point
	}{{"text", image.Pt(8, 8)}, {"product", image.Pt(104, 140)}, {"fabric", image.Pt(100, 100)}}
	sheet := image.NewNRGBA(image.Rect(0, 0, 3*crop, len(rows)*crop))
	for r, row := range rows {
		small := imaging.Resize(origs[row.name], origSize/f, origSize/f, imaging.Lanczos)
		for c, big := range []*image.NRGBA{
			imaging.Resize(small, origSize, origSize, imaging.NearestNeighbor),
			imaging.Resize(small, origSize, origSize, imaging.Lanczos),
			Upscale(small, f),
		} {
			draw.Draw(sheet, image.Rect(c*crop, r*crop, (c+1)*crop, (r+1)*crop), big, row.at, draw.Src)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, sheet))
	require.LessOrEqual(t, buf.Len(), 150<<10, "a README picture")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "upscale.png"), buf.Bytes(), 0o644))
}
