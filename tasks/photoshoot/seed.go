package photoshoot

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"time"

	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// previewCameraCM is the camera height a scene's preview is drawn for.
const previewCameraCM = 45

// libraryEntry is one record of the library with its preview drawing.
type libraryEntry struct {
	kind, id, name string
	fields         any
	preview        func() *image.NRGBA
}

// libraryEntries lists the library in listing order (the first is listed
// first).
func libraryEntries() []libraryEntry {
	var out []libraryEntry
	for _, b := range backgrounds {
		f := map[string]any{"setting": b.Setting, "backdrop_colour": b.Colour, "description": b.Text, "horizon": nil}
		if b.Setting == settingScene {
			f["horizon"] = b.Horizon
		}
		out = append(out, libraryEntry{kindBackground, b.ID, "", f, func() *image.NRGBA {
			return shot{bg: b, w: 480, h: 360}.backdrop(previewCameraCM)
		}})
	}
	for _, m := range baseModels {
		f := styleFields{Body: m.Body}
		out = append(out, libraryEntry{kindModel, m.ID, m.Name, baseFields(f), func() *image.NRGBA {
			return figurePreview(m.Body, angleFront, 300, 400)
		}})
	}
	for _, p := range poses {
		body := bodyOfGender(p.Gender)
		out = append(
			out,
			libraryEntry{
				kindPose,
				p.ID,
				"",
				map[string]any{"gender": p.Gender, "angle": p.Angle, "description": angleText[p.Angle]},
				func() *image.NRGBA { return figurePreview(body, p.Angle, 240, 320) },
			},
		)
	}
	for _, pr := range presets {
		out = append(
			out,
			libraryEntry{
				kindPosePreset,
				pr.ID,
				pr.Name,
				map[string]any{"angles": pr.Angles, "description": pr.Text},
				func() *image.NRGBA { return presetPreview(pr) },
			},
		)
	}
	return out
}

// baseFields are a base model's record fields: its body, no base.
func baseFields(f styleFields) map[string]any {
	b, _ := json.Marshal(f.Body)
	out := map[string]any{}
	_ = json.Unmarshal(b, &out)
	out["base"] = nil
	return out
}

// bodyOfGender is the first base model of a gender: poses are shown on it.
func bodyOfGender(g string) Body {
	for _, m := range baseModels {
		if m.Body.Gender == g {
			return m.Body
		}
	}
	return baseModels[0].Body
}

// figurePreview draws a figure in a pose on a light studio sweep.
func figurePreview(b Body, angle string, w, h int) *image.NRGBA {
	img := newCanvas(w, h, hexColour("#EEEDEA"))
	foot := image.Pt(w/2, h*95/100)
	footShadow(img, foot, float64(w)/10)
	drawFigure(img, b, angle, foot, 0.88*float64(h), nil)
	return img
}

// footShadow is a soft ellipse of shadow under a drawn figure's feet.
func footShadow(img *image.NRGBA, foot image.Point, rx float64) {
	ellipse(img, float64(foot.X), float64(foot.Y), rx, math.Max(2, rx/6), color.NRGBA{0, 0, 0, 40})
}

// presetPreview draws a preset's poses side by side.
func presetPreview(p Preset) *image.NRGBA {
	const cw, h = 160, 320
	img := newCanvas(cw*len(p.Angles), h, hexColour("#EEEDEA"))
	for i, a := range p.Angles {
		drawFigure(img, baseModels[0].Body, a, image.Pt(cw*i+cw/2, h*95/100), 0.88*h, nil)
	}
	return img
}

// SeedLibrary writes the photoshoots library — backgrounds, base models,
// poses and pose presets with their previews — into db and bucket, owned
// by the curated user so every account lists them. Records already there
// are kept and nothing of theirs is drawn again, so running it on each
// `taskplatform migrate` and `dev` only adds what is missing (about 40
// small previews on a first run).
func SeedLibrary(ctx context.Context, db *gorm.DB, bucket *blob.Bucket) error {
	var have []string
	if err := db.WithContext(ctx).Model(&models.Record{}).
		Where("user_id = ? AND kind IN ?", models.CuratedUser, recordKindNames()).
		Pluck("id", &have).Error; err != nil {
		return fmt.Errorf("read the photoshoots library: %w", err)
	}
	known := map[string]bool{}
	for _, id := range have {
		known[id] = true
	}
	entries := libraryEntries()
	// Older entries first, so listings (newest first) show the library in
	// its order.
	at := time.Now().UTC().Add(-time.Duration(len(entries)) * time.Second)
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		at = at.Add(time.Second)
		if known[e.id] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		img := e.preview()
		data, err := encodeJPEG(img)
		if err != nil {
			return err
		}
		fileID := e.id + "_preview"
		key := "records/" + fileID + ".jpg"
		if err := bucket.WriteAll(ctx, key, data, nil); err != nil {
			return fmt.Errorf("store %s: %w", fileID, err)
		}
		size, _ := json.Marshal(map[string]int{"width": img.Rect.Dx(), "height": img.Rect.Dy()})
		if err := models.PutRecordFile(ctx, db, &models.File{ID: fileID, MediaType: "image/jpeg", BlobKey: key, Size: int64(
			len(data)), SHA256: models.Digest(data),
			Data: string(size), ExternalID: e.kind + ":" + e.id}, at); err != nil {
			return err
		}
		fields, err := json.Marshal(e.fields)
		if err != nil {
			return err
		}
		if err := models.CreateRecord(ctx, db, &models.Record{ID: e.id, Kind: e.kind, UserID: models.CuratedUser,
			Name:   e.name,
			Status: models.RecordReady, Fields: string(fields), PreviewFileID: fileID}, at); err != nil {
			return err
		}
	}
	return nil
}

// LibraryHandles lists the handles of the photoshoots library by kind, in
// library order.
func LibraryHandles() map[string][]string {
	out := map[string][]string{}
	for _, e := range libraryEntries() {
		out[e.kind] = append(out[e.kind], e.kind+":"+e.id)
	}
	return out
}
