package photoshoot

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

// TestDocsImages draws the README's before/after pictures of
// photoshoot.create (a bag and a sneaker photographed on a sweep: the
// photo, the Amazon packshot and the product at its real height in a
// scene) and model.create (two portraits and the style card read from
// them), from the tests' own inputs. DOCS_IMAGES=dir writes them there
// (make docs-images); otherwise they are drawn and checked in a temporary
// folder.
func TestDocsImages(t *testing.T) {
	dir := os.Getenv("DOCS_IMAGES")
	if dir == "" {
		dir = t.TempDir()
	}
	const tile = 220
	amazon := marketplaces[0]
	loft, ok := backgroundByHandle("background:bg_scene_loft")
	require.True(t, ok)
	rows := []struct {
		photo  *image.NRGBA
		height float64
	}{{bagPhoto(), 35}, {sneakerPhoto(), 12}}
	sheet := image.NewNRGBA(image.Rect(0, 0, 3*tile, len(rows)*tile))
	for r, row := range rows {
		prod := cutProduct(t, row.photo)
		pack := shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: 800, h: 800,
			market: &amazon}.draw(prod)
		scene := shot{bg: loft, pose: poseFor(genderWoman, angleFront), w: 800, h: 800,
			heightCM: row.height}.draw(prod)
		for c, img := range []image.Image{row.photo, pack.img, scene.img} {
			placeTile(sheet, img, c, r, tile)
		}
	}
	writeDocsPicture(t, filepath.Join(dir, "photoshoot-create.png"), sheet)

	photos := []image.Image{
		portrait(hexColour("#F5F5F3"), hexColour("#3B2519"), hexColour("#0F0C0B"), hexColour("#7A1F2B"), "bob"),
		portrait(hexColour("#8A8F96"), hexColour("#E8C1A5"), hexColour("#E9E7E2"), hexColour("#2F3E4F"), "short"),
	}
	card := func(photo image.Image, base baseModel) *image.NRGBA {
		read := readPhoto(photo)
		got := tonesOf([]toneRead{read})
		body := base.Body
		body.Skin, body.Hair = got.skin, got.hair
		return styleCard("Style of a photo", base.Name, body, []cardTone{
			{"Skin", body.Skin, "read from 1 photo"}, {"Hair", body.Hair, "read from 1 photo"},
		}, []image.Image{photo}, []toneRead{read})
	}
	models := image.NewNRGBA(image.Rect(0, 0, 3*tile, 2*tile))
	width := tile
	for r, base := range []baseModel{baseModels[1], baseModels[2]} {
		c := card(photos[r], base)
		placeTile(models, photos[r], 0, r, tile)
		fit := imaging.Fit(c, 2*tile, tile, imaging.Lanczos)
		draw.Draw(models, fit.Rect.Add(image.Pt(tile, r*tile)), fit, image.Point{}, draw.Src)
		width = max(width, tile+fit.Rect.Dx())
	}
	writeDocsPicture(t, filepath.Join(dir, "model-create.png"), models.SubImage(image.Rect(0, 0, width, 2*tile)))
}

// placeTile draws img fitted into the tile at column c, row r.
func placeTile(sheet *image.NRGBA, img image.Image, c, r, tile int) {
	fit := imaging.Fit(img, tile, tile, imaging.Lanczos)
	at := image.Pt(c*tile+(tile-fit.Rect.Dx())/2, r*tile+(tile-fit.Rect.Dy())/2)
	draw.Draw(sheet, fit.Rect.Add(at), fit, image.Point{}, draw.Src)
}

// writeDocsPicture writes img as a PNG of at most 150 KB.
func writeDocsPicture(t *testing.T, path string, img image.Image) {
	var buf bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img))
	require.LessOrEqual(t, buf.Len(), 150<<10, "%s: a README picture", path)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}
