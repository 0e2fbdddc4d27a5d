package photoshoot

import "github.com/taskplatform/taskplatform/tasks"

// The kinds of record the family keeps (handles background:, pose:,
// pose_preset:, model:, photoshoot:). Backgrounds, poses, pose presets and
// base models are the curated library; a model's saved style and a
// photoshoot belong to an account and are made by a job.
const (
	kindBackground = "background"
	kindPose       = "pose"
	kindPosePreset = "pose_preset"
	kindModel      = "model"
	kindPhotoshoot = "photoshoot"
)

// recordKinds are the family's record kinds, with the fields each shows at
// GET /v1/files/{ref} and what its reference items carry.
func recordKinds() []tasks.RecordKind {
	genders := obj{"type": "string", "enum": []any{"woman", "man", "girl", "boy"}, "description": "The figure's gender."}
	number := func(what string) obj { return obj{"type": "number", "description": what} }
	text := func(what string) obj { return obj{"type": "string", "description": what} }
	list := func(what string) obj {
		return obj{"type": "array", "items": obj{"type": "string"}, "description": what}
	}
	settings := obj{"type": "string", "enum": []any{settingStudio, settingScene},
		"description": "A studio colour or a drawn scene."}
	return []tasks.RecordKind{
		{
			Name:        kindBackground,
			Description: "A backdrop of the library: a studio colour or a drawn scene.",
			Fields: obj{
				"description":     obj{"type": []any{"string", "null"}, "description": "What it shows."},
				"setting":         settings,
				"backdrop_colour": text("The studio colour, or a scene's main tone, #RRGGBB."),
				"horizon": obj{"type": []any{"number", "null"},
					"description": "A scene's horizon as a share of the height from the top; null for studio."},
			},
			Required: []string{"description", "setting", "backdrop_colour", "horizon"},
			Listing:  tasks.RecordListing{Library: true, Unnamed: true, Item: map[string]string{"kind": "setting"}},
		},
		{
			Name:        kindPose,
			Description: "A pose of the library: one angle drawn for one gender's figures.",
			Fields: obj{
				"description": obj{"type": []any{"string", "null"}, "description": "What it shows."},
				"gender":      genders,
				"angle":       text("front, three_quarter, side, back or walking."),
			},
			Required: []string{"description", "gender", "angle"},
			Listing:  tasks.RecordListing{Library: true, Unnamed: true, Item: map[string]string{"gender": "gender"}},
		},
		{
			Name:        kindPosePreset,
			Description: "A pose preset of the library: a set of angles, such as a catalogue's.",
			Fields: obj{
				"description": obj{"type": []any{"string", "null"}, "description": "What it shows."},
				"angles":      list("The angles it names, in order."),
			},
			Required: []string{"description", "angles"},
			Listing:  tasks.RecordListing{Library: true},
		},
		{
			Name:        kindModel,
			Description: "A drawn fashion figure: a base model of the library or an account's saved style (model.create).",
			Fields: obj{
				"images": list("A saved style's reference photos as sent."),
				"gender": genders,
				"base": obj{"type": []any{"string", "null"},
					"description": "The base model of a saved style (model:<id>); null for a base model."},
				"heads":      number("The figure's height in head heights."),
				"shoulders":  number("Half the shoulder width, in head heights."),
				"waist":      number("Half the waist width, in head heights."),
				"hips":       number("Half the hip width, in head heights."),
				"skin":       text("The skin tone, #RRGGBB."),
				"hair":       text("The hair colour, #RRGGBB."),
				"hair_style": text("long, bob, short or ponytail."),
				"adjustments": obj{"type": []any{"object", "null"}, "description": "A saved style's proportions as asked.",
					"properties": obj{"height": number("Head heights added to the base's height."),
						"shoulders": number("Added to the base's shoulders."), "waist": number("Added to the base's waist."),
						"hips": number("Added to the base's hips.")}},
			},
			Required: []string{"gender", "base", "heads", "shoulders", "waist", "hips", "skin", "hair", "hair_style"},
			Listing: tasks.RecordListing{WithLibrary: true, Search: true, Base: true,
				Item: map[string]string{"gender": "gender", "base": "base"}},
		},
		{
			Name:        kindPhotoshoot,
			Description: "A photoshoot (photoshoot.create): what it used and the shots its job delivered so far.",
			Fields: obj{
				"images":  list("Its shots, art: handles, as delivered so far."),
				"product": text("The product image of the front, as sent."),
				"views": obj{"type": "object", "description": "The product images by view, as sent.",
					"properties": obj{"front": text("The front."), "back": text("The back."), "side": text("The side."),
						"three_quarter": text("The three-quarter view.")}},
				"background":     text("The backdrop as sent."),
				"setting":        settings,
				"marketplace":    text("The marketplace preset framing the shots, or none."),
				"poses":          list("The poses shot, presets resolved."),
				"count_per_pose": obj{"type": "integer", "description": "Shots per pose."},
				"width":          obj{"type": "integer", "description": "The shots' width in pixels."},
				"height":         obj{"type": "integer", "description": "The shots' height in pixels."},
			},
			Required: []string{"images", "product", "views", "background", "setting", "marketplace", "poses",
				"count_per_pose", "width", "height"},
			Outputs: "images",
		},
	}
}

// recordKindNames are the names of the family's record kinds.
func recordKindNames() []string {
	var out []string
	for _, k := range recordKinds() {
		out = append(out, k.Name)
	}
	return out
}
