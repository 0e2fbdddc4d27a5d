package pattern

import "github.com/taskplatform/taskplatform/tasks"

// kindVocab is the pattern_kind vocabulary: the kinds pattern.generate draws.
func kindVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(kinds))
	for i, k := range kinds {
		values[i] = tasks.VocabValue{
			Value:       k.value,
			Label:       k.label,
			Description: k.text,
			Group:       k.group,
			Default:     k.value == "stripes",
			Aliases:     kindWords[k.value],
		}
	}
	return tasks.Vocabulary{
		Name: "pattern_kind", Description: "The motif of a repeat pattern.",
		Values: values, Default: new("stripes"), Concept: new("task_variant"),
		Groups: []tasks.VocabGroup{
			{Name: "geometric", Description: "Lines and shapes on a regular grid."},
			{Name: "woven", Description: "Patterns of woven cloth, drawn thread by thread in a 2/2 twill."},
			{Name: "spot", Description: "Separate motifs on a ground colour."},
		},
	}
}

// kindWords are the other words that name each kind (plural, adjective,
// common names), served as the kind's aliases: design.from_prompt reads a
// kind from a brief by its value or one of these.
var kindWords = map[string][]string{
	"stripes":       {"stripe", "striped", "stripy", "pinstripe", "pinstripes", "breton"},
	"checks":        {"check", "checked", "checkerboard", "chequerboard", "chequered", "checkered"},
	"dots":          {"dot", "dotted", "polka", "spots", "spot", "spotted"},
	"chevron":       {"chevrons", "zigzag", "zigzags", "zig-zag"},
	"waves":         {"wave", "wavy", "ripple", "ripples"},
	"diamonds":      {"diamond", "harlequin", "lozenge"},
	"houndstooth":   {"dogtooth", "hounds-tooth"},
	"plaid":         {"tartan", "plaids"},
	"gingham":       {"ginghams", "vichy"},
	"buffalo_check": {"buffalo", "lumberjack"},
	"windowpane":    {"windowpanes", "window-pane"},
}

// layoutVocab is the repeat_layout vocabulary: the layouts pattern.repeat makes.
func layoutVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "repeat_layout", Description: "How copies of a motif are placed in a repeat tile.",
		Values: []tasks.VocabValue{
			{
				Value:       "grid",
				Label:       "Grid",
				Description: "Copies in straight rows and columns.",
				ChooseWhen:  "the motif is geometric or meant to read as a grid",
			},
			{
				Value:       "half_drop",
				Label:       "Half-drop",
				Description: "Every other column drops by half a cell, hiding the grid.",
				ChooseWhen:  "you are unsure; the textile default",
				Default:     true,
			},
			{
				Value:       "brick",
				Label:       "Brick",
				Description: "Every other row shifts by half a cell, like brickwork.",
				ChooseWhen:  "the motif is wide",
			},
			{
				Value:       "mirror",
				Label:       "Mirror",
				Description: "Copies alternate with their mirror image.",
				ChooseWhen:  "the motif has a direction you want balanced",
			},
		},
		Default: new("half_drop"), Concept: new("seamless_tile"),
	}
}
