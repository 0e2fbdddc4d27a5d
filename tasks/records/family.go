// Package records is the records_libraries family: moodboard.create (a
// collage, then an analysis of the board's palette and of every look, on
// the capacity-limited analysis queue), brand_kit.create, fabric.create and
// range_plan.create. Each keeps a record the account reads at
// GET /v1/refs/{kind} and GET /v1/files/{ref}, declared as its record
// kinds (kinds.go), written at submit (an Admitter) and completed by the
// job's steps through tasks/recordstore. It ships the curated library
// (SeedCurated). Other families read its brand kits, fabrics and range
// plans through tasks/recordread, which also draws a fabric's swatch; the
// family hands that package its library's fabrics for catalogue examples.
package records

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/tasks"
)

// Family is everything the records family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:  "records",
		Tasks: []*tasks.Definition{moodboard(), brandKit(), fabric(), rangePlan()},
		Vocabularies: []tasks.Vocabulary{
			colourNameVocab(),
			temperatureVocab(),
			surfaceVocab(),
			fibreVocab(),
			constructionVocab(),
			garmentVocab(),
		},
		Concepts: concepts(),
		Recipes:  recipes(),
		Records:  recordKinds(),
	}
}

func temperatureVocab() tasks.Vocabulary {
	return tasks.Vocabulary{Name: "colour_temperature", Description: "Whether a look's colours read warm or cool.",
		Concept: new("look"), Values: []tasks.VocabValue{
			{
				Value:       "warm",
				Label:       "Warm",
				Description: "Most of the coloured pixels are reds, oranges or yellows (hue 330° to 100°).",
			},
			{Value: "cool", Label: "Cool", Description: "Most of the coloured pixels are greens, blues or purples."},
			{
				Value:       "neutral",
				Label:       "Neutral",
				Description: "Under a tenth of the pixels are coloured (C*ab above 12), or warm and cool balance.",
			},
		}, UsedIn: recordLooks("temperature")}
}

// recordLooks are the record reads that carry a look's field beside
// moodboard.create's output: a moodboard's analysis and a brand kit's
// looks at GET /v1/files/{ref}.
func recordLooks(field string) []tasks.UsedIn {
	return []tasks.UsedIn{
		{Where: "GET /v1/files/{ref}", Field: "analysis.looks[]." + field, Direction: "output"},
		{Where: "GET /v1/files/{ref}", Field: "looks[].analysis." + field, Direction: "output"},
	}
}

func surfaceVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name:        "look_surface",
		Description: "Whether a look reads as a print or a solid, from its edge density.",
		Concept:     new("look"),
		Values: []tasks.VocabValue{
			{
				Value:       "print",
				Label:       "Print",
				Description: "More than 8% of the pixels sit on a lightness edge: stripes, checks, florals, busy photos.",
			},
			{Value: "solid", Label: "Solid", Description: "A plain colour or a quiet texture."},
		},
		UsedIn: recordLooks("surface"),
	}
}

func concepts() []tasks.Concept {
	return []tasks.Concept{
		{
			Name:  "moodboard",
			Short: "A named set of 3 to 24 images kept as a record, with a collage and an analysis of its colours.",
			Long: "moodboard.create keeps the images as moodboard:<id>, listed at GET /v1/refs/moodboard from the moment " +
				"it is accepted (status analysing). Its job delivers a collage, then analyses the board on the analysis queue: " +
				"a palette of 5 to 8 colours clustered in CIELAB with weights and the nearest colour_name, and one look per " +
				"image. The record reads status ready with its analysis, or failed with a reason. The curated library " +
				"(curated=true) holds ready moodboards every account may use.",
			Related: []string{"look", "brand_kit"},
		},
		{Name: "look", Short: "One image of a moodboard as the analysis reads it.",
			Long: "A look is an image's stored copy (url) with its dominant colours, mean lightness (L*) and chroma " +
				"(C*ab), temperature (colour_temperature) and surface (look_surface, print or solid by edge density). A brand " +
				"kit keeps chosen looks by their url.",
			Related: []string{"moodboard", "brand_kit"}},
		{Name: "brand_kit", Short: "A brand's colours, moodboards and chosen looks kept as one record.",
			Long: "brand_kit.create keeps 1 to 12 colours, analysed moodboards and looks from them as brand_kit:<id>, " +
				"delivered as a brand sheet (PNG and a one-page PDF with searchable text). The kit's job matches every look's " +
				"colours to the kit's; until then a task that needs the kit's looks answers brand_kit_look_not_ready. " +
				"range_plan.create takes a brand kit to head its sheet.",
			Related: []string{"moodboard", "look", "range_plan"}},
		{Name: "fabric", Short: "A fabric's weight, composition and construction kept as a record with its code.",
			Long: "fabric.create keeps a fabric as fabric:<id>: weight in g/m² (with its class and oz/yd²), composition " +
				"by fibre (vocabulary fibre, adding up to 100) and construction (fabric_construction), a code such as " +
				"CO98EL2-DN-340, and the swatch's measured colour. The curated library holds more than twenty fabrics every " +
				"account may use in range plans.",
			Related: []string{"range_plan"}},
		{Name: "range_plan", Short: "A season's styles by garment type, with fabrics, colourways and units.",
			Long: "range_plan.create keeps a season's items as range_plan:<id> and draws them grouped by garment_type " +
				"with their fabrics' swatches and colourways, as an overview PNG and a PDF sheet. Each garment type has a most " +
				"items per plan (too_many_items names the item over it).",
			Related: []string{"fabric", "brand_kit"}},
	}
}

func recipes() []tasks.Recipe {
	return []tasks.Recipe{
		{
			Name: "moodboard_to_range_plan", Title: "From a moodboard to a brand kit and a range plan",
			Description: "Keep a board of images, take its analysed colours into a brand kit, then plan a season on curated " +
				"fabrics under that kit.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Make the moodboard",
					Method: "POST",
					Path:   "/v1/tasks/moodboard.create",
					Task:   "moodboard.create",
					Body: json.RawMessage(
						`{"name":"Harbour SS27","images":["file:example_mb_breton","file:example_mb_linen","file:example_mb_sky"],` +
							`"description":"Seaside stripes and linen."}`,
					),
					Note: "Answers 202 with job_id. Use your own uploads (file:) or public https URLs as images; the example files " +
						"work for everyone.",
				},
				{Title: "Find the record", Method: "GET", Path: "/v1/refs/moodboard",
					Note: "The newest item is the moodboard (moodboard:<id>), listed while it is analysed; the job's files carry " +
						"it too, in data.moodboard."},
				{Title: "Wait for the analysis", Method: "GET", Path: "/v1/files/moodboard:FROM_STEP_2",
					Note: "status moves from analysing to ready; analysis.palette lists its colours and analysis.looks[].url the " +
						"looks a brand kit can keep."},
				{
					Title:   "Make the brand kit",
					Method:  "POST",
					Path:    "/v1/tasks/brand_kit.create",
					Task:    "brand_kit.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"name":"Harbour","colours":["#1B2A4A","#D6C3A1","#FAFAF7","#8EC6EA"],"moodboards":["moodboard:FROM_STEP_2"],` +
							`"notes":"Navy leads; sand and white for grounds; sky blue as the accent."}`,
					),
					Note: "Put step 2's handle in moodboards (and any looks[].url of it in looks). Answers the PNG and PDF sheets; " +
						"files[0].data.brand_kit is the kit.",
				},
				{
					Title:   "Plan the range",
					Method:  "POST",
					Path:    "/v1/tasks/range_plan.create",
					Task:    "range_plan.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"name":"Harbour SS27","season":"SS27","brand_kit":"brand_kit:FROM_STEP_4","items":[` +
							`{"type":"t_shirt","name":"Breton tee","fabric":"fabric:fb_cur_jersey_white","colours":["#1B2A4A","#FAFAF7"],` +
							`"quantity":400},` +
							`{"type":"trousers","name":"Wide linen trouser","fabric":"fabric:fb_cur_linen_natural","colours":["#D6C3A1"],` +
							`"quantity":200},` +
							`{"type":"shirt","name":"Oxford overshirt","fabric":"fabric:fb_cur_oxford_blue","colours":["#8EC6EA"],` +
							`"quantity":150}]}`,
					),
					Note: "Put step 4's brand_kit:<id>. The fabrics are curated (GET /v1/refs/fabric?curated=true); answers the " +
						"overview PNG and the PDF sheet.",
				},
			},
		},
		{
			Name: "record_a_fabric", Title: "Record a fabric from a swatch photo",
			Description: "Upload a photo of a swatch, keep it as a fabric record with its code and measured colour, then use " +
				"it in a range plan.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Upload the swatch",
					Method: "POST",
					Path:   "/v1/files",
					Note:   "Multipart, part file: a PNG or JPEG photo of the fabric. Answers file:<id>.",
				},
				{Title: "Record the fabric", Method: "POST", Path: "/v1/tasks/fabric.create", Task: "fabric.create",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body: json.RawMessage(
						`{"name":"Stretch twill, camel","facts":{"weight_gsm":260,"composition":[{"fibre":"cotton","percent":97},` +
							`{"fibre":"elastane","percent":3}],"construction":"twill"},"swatch":"file:FROM_STEP_1"}`,
					),
					Note: "Put step 1's handle in swatch. The swatch card's data has the code CO97EL3-TW-260 and the measured " +
						"colour; data.fabric is the record."},
				{
					Title:  "Use it in a range plan",
					Method: "POST",
					Path:   "/v1/tasks/range_plan.create",
					Task:   "range_plan.create",
					Body: json.RawMessage(
						`{"name":"Utility capsule","season":"AW26","items":[{"type":"trousers","name":"Camel chino",` +
							`"fabric":"fabric:FROM_STEP_2","colours":["#B9895A"],"quantity":300}]}`,
					),
					Note: "Put step 2's fabric:<id> in fabric.",
				},
			},
		},
		{
			Name: "curated_library", Title: "Plan on the curated library",
			Description: "List the curated moodboards and fabrics every account may use, and draw a range plan from them " +
				"without making any record first.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "List curated fabrics",
					Method: "GET",
					Path:   "/v1/refs/fabric?curated=true",
					Note:   "Twenty and more fabrics, each fabric:<id> with its swatch card as url.",
				},
				{
					Title:  "Read one",
					Method: "GET",
					Path:   "/v1/files/fabric:fb_cur_denim_indigo",
					Note:   "Its facts, code, weight class and measured colour.",
				},
				{
					Title:  "Plan the range",
					Method: "POST",
					Path:   "/v1/tasks/range_plan.create",
					Task:   "range_plan.create",
					Body: json.RawMessage(`{"name":"Indigo denim drop","season":"AW26","items":[` +
						`{"type":"jeans","name":"Straight 5-pocket","fabric":"fabric:fb_cur_denim_indigo","colours":["#2B3A5C"],` +
						`"quantity":500},` +
						`{"type":"jacket","name":"Trucker jacket","fabric":"fabric:fb_cur_stretch_denim","colours":["#4E6C92"],` +
						`"quantity":200}]}`),
					Note: "Answers 202; the overview PNG and PDF sheet follow.",
				},
			},
		},
	}
}
