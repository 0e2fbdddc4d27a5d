package photoshoot

import (
	"image"
	"image/color"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// The curated library: backgrounds, base models, poses and pose presets
// defined here, drawn by this package's code and written as records by
// `taskplatform migrate` and `dev` (SeedLibrary), so every account lists
// them at GET /v1/refs/{kind}. Tasks read the library from this code; the
// records make it listable.

// Background settings.
const (
	settingStudio = "studio"
	settingScene  = "scene"
)

// Background is one backdrop of the library.
type Background struct {
	ID string
	// Setting is studio (a single colour) or scene (a drawn place).
	Setting string
	// Colour is a studio backdrop's colour, or a scene's main tone.
	Colour string
	// Horizon is where a scene's floor meets its wall or the sky, as a share
	// of the image height from the top; objects standing on the floor scale
	// with their distance below it.
	Horizon float64
	// Text says what the backdrop is.
	Text string
	// draw paints the scene seen by a level camera cam cm above its floor.
	draw func(w, h int, cam float64) *image.NRGBA
}

// Handle is the background's reference, background:<id>.
func (b Background) Handle() string { return kindBackground + ":" + b.ID }

var backgrounds = []Background{
	{
		ID:      "bg_studio_white",
		Setting: settingStudio,
		Colour:  "#FFFFFF",
		Text:    "Pure white studio sweep: marketplace packshots.",
	},
	{
		ID:      "bg_studio_light_grey",
		Setting: settingStudio,
		Colour:  "#E6E6E3",
		Text:    "Light grey studio sweep: neutral catalogue shots.",
	},
	{
		ID:      "bg_studio_sand",
		Setting: settingStudio,
		Colour:  "#E4D5BC",
		Text:    "Warm sand studio sweep: natural and beauty products.",
	},
	{
		ID:      "bg_studio_blush",
		Setting: settingStudio,
		Colour:  "#EBCFCB",
		Text:    "Blush pink studio sweep: soft, seasonal shots.",
	},
	{
		ID:      "bg_studio_black",
		Setting: settingStudio,
		Colour:  "#161616",
		Text:    "Black studio sweep: premium, high-contrast shots (floor shadows barely show).",
	},
	{
		ID:      "bg_scene_loft",
		Setting: settingScene,
		Colour:  "#EFE9E0",
		Horizon: 0.58,
		Text:    "Loft interior: warm white wall with window light over an oak plank floor.",
		draw:    drawLoft,
	},
	{
		ID:      "bg_scene_gallery",
		Setting: settingScene,
		Colour:  "#D9D8D4",
		Horizon: 0.62,
		Text:    "Gallery set: grey plaster wall, skirting and polished concrete floor.",
		draw:    drawGallery,
	},
	{
		ID:      "bg_scene_terracotta",
		Setting: settingScene,
		Colour:  "#C7764F",
		Horizon: 0.6,
		Text:    "Wall-and-floor set: terracotta wall with an arch over stone tiles.",
		draw:    drawTerracotta,
	},
	{
		ID:      "bg_scene_beach",
		Setting: settingScene,
		Colour:  "#9CC9E4",
		Horizon: 0.5,
		Text:    "Beach: sky fading to the horizon, a band of sea and sand coming forward.",
		draw:    drawBeach,
	},
	{
		ID:      "bg_scene_meadow",
		Setting: settingScene,
		Colour:  "#7FA35A",
		Horizon: 0.55,
		Text:    "Meadow: hazy hills under an open sky and grass coming forward.",
		draw:    drawMeadow,
	},
}

// backgroundByHandle finds a library backdrop by its handle.
func backgroundByHandle(ref string) (Background, bool) {
	for _, b := range backgrounds {
		if b.Handle() == ref {
			return b, true
		}
	}
	return Background{}, false
}

// studioOf is the studio backdrop of a colour sent as #RRGGBB.
func studioOf(hex string) Background {
	return Background{
		ID:      "",
		Setting: settingStudio,
		Colour:  strings.ToUpper(hex),
		Text:    "Studio sweep in " + strings.ToUpper(hex) + ".",
	}
}

// The genders of models and poses.
const (
	genderWoman = "woman"
	genderMan   = "man"
	genderGirl  = "girl"
	genderBoy   = "boy"
)

var genders = []string{genderWoman, genderMan, genderGirl, genderBoy}

// Body is a fashion figure's build: the parameters a croquis is drawn from.
type Body struct {
	Gender string `json:"gender"`
	// Heads is the figure's height in head heights (a fashion croquis is
	// drawn 8 to 9 heads tall, a child's about 6).
	Heads float64 `json:"heads"`
	// Shoulders, Waist and Hips are half-widths, in head heights.
	Shoulders float64 `json:"shoulders"`
	Waist     float64 `json:"waist"`
	Hips      float64 `json:"hips"`
	// Skin and Hair are tones, #RRGGBB.
	Skin string `json:"skin"`
	Hair string `json:"hair"`
	// HairStyle is long, bob, short or ponytail.
	HairStyle string `json:"hair_style"`
}

// baseModel is one curated figure.
type baseModel struct {
	ID, Name string
	Body     Body
}

// Handle is the model's reference, model:<id>.
func (m baseModel) Handle() string { return kindModel + ":" + m.ID }

var baseModels = []baseModel{
	{"md_ava", "Ava", Body{genderWoman, 8.6, 0.78, 0.5, 0.8, "#E8C4A8", "#3B2A20", "long"}},
	{"md_imani", "Imani", Body{genderWoman, 8.8, 0.8, 0.52, 0.84, "#8D5A3B", "#1C1412", "bob"}},
	{"md_noah", "Noah", Body{genderMan, 8.8, 0.98, 0.64, 0.74, "#D9A884", "#2B1E16", "short"}},
	{"md_kenji", "Kenji", Body{genderMan, 8.7, 0.94, 0.62, 0.72, "#E2B98F", "#141414", "short"}},
	{"md_mia", "Mia", Body{genderGirl, 6.2, 0.66, 0.5, 0.62, "#F0CDB4", "#7A4B2A", "ponytail"}},
	{"md_leo", "Leo", Body{genderBoy, 6.0, 0.68, 0.54, 0.6, "#B57C55", "#2A1C12", "short"}},
}

// baseByHandle finds a curated base model by its handle.
func baseByHandle(ref string) (baseModel, bool) {
	for _, m := range baseModels {
		if m.Handle() == ref {
			return m, true
		}
	}
	return baseModel{}, false
}

// The angles a pose is drawn from; without a model they are camera angles
// on the product.
const (
	angleFront        = "front"
	angleThreeQuarter = "three_quarter"
	angleSide         = "side"
	angleBack         = "back"
	angleWalking      = "walking"
)

var angles = []string{angleFront, angleThreeQuarter, angleSide, angleBack, angleWalking}

// angleText says what each angle shows on a figure and in a packshot.
var angleText = map[string]string{
	angleFront:        "Facing the camera; a packshot of product, straight on.",
	angleThreeQuarter: "Turned about 35°; a packshot of product_three_quarter, the product photographed turned.",
	angleSide:         "In profile; a packshot of product_side, the product photographed from the side.",
	angleBack: "From behind; a packshot of product_back, the product photographed from behind (never the front " +
		"mirrored).",
	angleWalking: "Mid-stride with arms swinging; a packshot of product tilted 6° as if in motion.",
}

// Pose is one curated pose: an angle drawn for one gender's figures.
type Pose struct {
	ID, Gender, Angle string
}

// Handle is the pose's reference, pose:<id>.
func (p Pose) Handle() string { return kindPose + ":" + p.ID }

// poses are every angle for every gender: pose:ps_<gender>_<angle>.
var poses = func() []Pose {
	var out []Pose
	for _, g := range genders {
		for _, a := range angles {
			out = append(out, Pose{ID: "ps_" + g + "_" + a, Gender: g, Angle: a})
		}
	}
	return out
}()

// poseByHandle finds a pose by its handle.
func poseByHandle(ref string) (Pose, bool) {
	for _, p := range poses {
		if p.Handle() == ref {
			return p, true
		}
	}
	return Pose{}, false
}

// poseFor is the pose of an angle for a gender.
func poseFor(gender, angle string) Pose {
	return Pose{ID: "ps_" + gender + "_" + angle, Gender: gender, Angle: angle}
}

// Preset is a named set of pose angles: a shoot with it takes the pose of
// each angle for its model's gender (a woman's without a model).
type Preset struct {
	ID, Name string
	Angles   []string
	Text     string
}

// Handle is the preset's reference, pose_preset:<id>.
func (p Preset) Handle() string { return kindPosePreset + ":" + p.ID }

var presets = []Preset{
	{
		"pp_catalogue",
		"Catalogue: front, back, side",
		[]string{angleFront, angleBack, angleSide},
		"The three views a catalogue page needs.",
	},
	{
		"pp_ecommerce",
		"E-commerce: front, three-quarter, back",
		[]string{angleFront, angleThreeQuarter, angleBack},
		"A product page's gallery.",
	},
	{
		"pp_lookbook",
		"Lookbook: walking, three-quarter, front",
		[]string{angleWalking, angleThreeQuarter, angleFront},
		"Livelier shots for a lookbook or social feed.",
	},
	{
		"pp_full_turn",
		"Full turn: front, three-quarter, side, back",
		[]string{angleFront, angleThreeQuarter, angleSide, angleBack},
		"Every view around the product or figure.",
	},
	{"pp_hero", "Hero: front", []string{angleFront}, "One straight-on hero shot."},
}

// presetByHandle finds a preset by its handle.
func presetByHandle(ref string) (Preset, bool) {
	for _, p := range presets {
		if p.Handle() == ref {
			return p, true
		}
	}
	return Preset{}, false
}

// resolvePoses turns the poses field (pose and pose_preset handles) into
// the shoot's poses for a figure of gender (woman when the shoot has no
// model); none sent means one front pose. Unknown handles are left out:
// Admit refuses them first.
func resolvePoses(refs []string, gender string) []Pose {
	if gender == "" {
		gender = genderWoman
	}
	if len(refs) == 0 {
		return []Pose{poseFor(gender, angleFront)}
	}
	var out []Pose
	for _, r := range refs {
		if p, ok := poseByHandle(r); ok {
			out = append(out, p)
		}
		if pr, ok := presetByHandle(r); ok {
			for _, a := range pr.Angles {
				out = append(out, poseFor(gender, a))
			}
		}
	}
	return out
}

// hexColour reads #RRGGBB as an opaque colour.
func hexColour(s string) color.NRGBA {
	c := tasks.ParseColour(s)
	return color.NRGBA{c.R, c.G, c.B, 255}
}
