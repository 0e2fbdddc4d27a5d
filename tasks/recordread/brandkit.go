// Package recordread reads the records one family keeps that other
// families take as input by handle: a brand kit (image.recolour,
// colourway.generate, techpack.create), a fabric and a range plan
// (techpack.create), and draws a fabric's swatch. The records family makes
// them (tasks/records) and declares what they hold; a family that reads one
// imports this package, not that family.
package recordread

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// KindBrandKit is the kind of a brand kit's handle, brand_kit:<id>.
const KindBrandKit = "brand_kit"

// NamedColour is a measured colour: its hex, its share of what was
// measured and the nearest value of the colour_name vocabulary.
type NamedColour struct {
	Hex    string  `json:"hex"`
	Weight float64 `json:"weight"`
	Name   string  `json:"name"`
}

// Look is the analysis of one image of a moodboard.
type Look struct {
	// Index is the image's position in the moodboard's images.
	Index int `json:"index"`
	// Image is the reference as sent.
	Image string `json:"image"`
	// URL is the address of the service's stored copy (stored relative,
	// /files/{id}.jpg; answered absolute). Empty in a catalogue example.
	URL string `json:"url"`
	// Dominant are the image's main colours, heaviest first (1 to 3).
	Dominant []NamedColour `json:"dominant_colours"`
	// Lightness is the mean CIELAB L*, 0 (black) to 100 (white).
	Lightness float64 `json:"lightness"`
	// Chroma is the mean CIELAB C*ab: 0 for greys, 40 and more for vivid colours.
	Chroma float64 `json:"chroma"`
	// Temperature is warm, cool or neutral.
	Temperature string `json:"temperature"`
	// Surface is print (a pattern) or solid, read from the edge density.
	Surface string `json:"surface"`
	// EdgeDensity is the share of pixels on a lightness edge.
	EdgeDensity float64 `json:"edge_density"`
	// Backdrop is the plain backdrop left out of the look's colours and
	// the palette (a product shot's white or grey sweep), or nil.
	Backdrop *string `json:"backdrop,omitempty"`
}

// KitColour is one colour of a brand kit.
type KitColour struct {
	Hex  string `json:"hex"`
	Name string `json:"name"`
}

// KitLook is one look a brand kit keeps: a look of one of its moodboards.
type KitLook struct {
	// URL is the look's stored copy (absolute when read through ReadBrandKit).
	URL string `json:"url"`
	// Moodboard is the moodboard the look comes from.
	Moodboard string `json:"moodboard"`
	// Index is the look's position in that moodboard.
	Index int `json:"index"`
	// Look is the look's analysis; Match is its nearest kit colour per
	// dominant colour. Both are nil until the kit is ready.
	Look  *Look      `json:"analysis"`
	Match []KitMatch `json:"kit_match"`
}

// KitMatch pairs a look's dominant colour with the kit colour nearest it.
type KitMatch struct {
	Hex     string  `json:"hex"`
	KitHex  string  `json:"kit_colour"`
	DeltaE  float64 `json:"delta_e"`
	OnBrand bool    `json:"on_brand"`
}

// BrandKit is a brand kit as other tasks read it (image.recolour, techpacks).
type BrandKit struct {
	Handle string
	Name   string
	// Status is creating, ready or failed.
	Status, Reason string
	Colours        []KitColour
	Moodboards     []string
	Looks          []KitLook
	Notes          string
}

// BrandKitFields are the stored fields of a brand kit record.
type BrandKitFields struct {
	Colours    []KitColour `json:"colours"`
	Moodboards []string    `json:"moodboards"`
	Looks      []KitLook   `json:"looks"`
	Notes      *string     `json:"notes"`
}

// ReadBrandKit reads brand_kit:<id> of env's account for a task that takes
// one (at submit through an Admitter, or in a step with tasks.EnvOf); field
// names the input field that sent it. A kit the account does not own
// answers invalid_request naming field.
func ReadBrandKit(ctx context.Context, env tasks.Env, field, ref string) (*BrandKit, error) {
	if env.DB == nil {
		return nil, recordstore.NoRecord(field, ref)
	}
	r, status, reason, err := recordstore.Read(ctx, env, KindBrandKit, field, ref)
	if err != nil {
		return nil, err
	}
	var f BrandKitFields
	if err := json.Unmarshal([]byte(r.Fields), &f); err != nil {
		return nil, fmt.Errorf("read brand kit %s: %w", ref, err)
	}
	for i := range f.Looks {
		f.Looks[i].URL = recordstore.AbsoluteURL(env.FilesBaseURL, f.Looks[i].URL)
	}
	kit := &BrandKit{
		Handle:     r.Handle(),
		Name:       r.Name,
		Status:     status,
		Reason:     reason,
		Colours:    f.Colours,
		Moodboards: f.Moodboards,
		Looks:      f.Looks,
	}
	if f.Notes != nil {
		kit.Notes = *f.Notes
	}
	return kit, nil
}

// LooksReady answers brand_kit_look_not_ready naming field when the kit
// keeps looks whose analysis is not ready: the kit's job has not analysed
// them yet, or failed before it did. A task that uses a kit's looks calls
// it; a kit without looks is always ready.
func (k *BrandKit) LooksReady(field string) error {
	if len(k.Looks) == 0 || k.Status == models.RecordReady {
		return nil
	}
	if k.Status == models.RecordFailed {
		return apierr.Newf(apierr.BrandKitLookNotReady, "The looks of brand kit %s were never analysed: %s Create the kit "+
			"again.", k.Handle, k.Reason).
			WithField(field)
	}
	return apierr.Newf(apierr.BrandKitLookNotReady, "The looks of brand kit %s are still being analysed; send again "+
		"when GET /v1/files/%s shows status ready.", k.Handle, k.Handle).
		WithField(field)
}
