package design

import (
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// scales are the values of the design_scale vocabulary: the motif repeats
// across a tile for each.
var scales = []struct {
	value, label, text string
	repeats            int
	words              []string
}{
	{
		"small",
		"Small",
		"Small motifs, 12 repeats across the tile: ditsy prints, shirting.",
		12,
		[]string{"tiny", "fine", "ditsy", "micro", "mini", "petite"},
	},
	{"medium", "Medium", "Medium motifs, 6 repeats across the tile.", 6, []string{"mid", "regular"}},
	{
		"large",
		"Large",
		"Large motifs, 3 repeats across the tile: upholstery, wallpaper.",
		3,
		[]string{"big", "oversized", "giant", "huge", "wide"},
	},
}

func scaleVocab() tasks.Vocabulary {
	var values []tasks.VocabValue
	for _, s := range scales {
		values = append(values, tasks.VocabValue{Value: s.value, Label: s.label, Description: s.text, Aliases: s.words})
	}
	return tasks.Vocabulary{
		Name: "design_scale",
		Description: "The scale words a design brief is read for, with the motif repeats across a tile each gives. A " +
			"brief without one takes use_case general (6 repeats).",
		Values:  values,
		Concept: new("prompt_reading"),
		UsedIn:  promptReading(),
	}
}

// promptReading is where the design family's brief vocabularies are used
// outside task output schemas: a prompt is read for their words (values
// and aliases).
func promptReading() []tasks.UsedIn {
	return []tasks.UsedIn{{Where: "design.from_prompt", Field: "prompt", Direction: "input"}}
}

// moods are the values of the design_mood vocabulary and what each does
// to the colours read: every channel mixed toward a target by an amount.
var moods = []struct {
	value, label, text string
	words              []string
}{
	{
		"calm",
		"Calm",
		"Colours mixed 30 % toward their own grey: softer, dustier.",
		[]string{"soft", "muted", "subtle", "quiet", "dusty", "gentle"},
	},
	{"pastel", "Pastel", "Colours mixed 45 % toward white.", []string{"light", "pale", "airy", "pastels"}},
	{"dark", "Dark", "Colours mixed 35 % toward black.", []string{"moody", "deep", "night", "dramatic"}},
	{
		"bold",
		"Bold",
		"Colours pushed 25 % away from their own grey: more saturated.",
		[]string{"vivid", "bright", "vibrant", "punchy", "loud"},
	},
}

func moodVocab() tasks.Vocabulary {
	var values []tasks.VocabValue
	for _, m := range moods {
		values = append(values, tasks.VocabValue{Value: m.value, Label: m.label, Description: m.text, Aliases: m.words})
	}
	return tasks.Vocabulary{
		Name: "design_mood",
		Description: "The mood words a design brief is read for and what each does to the colours read. The first mood " +
			"word of a brief applies.",
		Values:  values,
		Concept: new("prompt_reading"),
		UsedIn:  promptReading(),
	}
}

// refused is the content policy: terms a prompt may not use, by kind.
// Kept short on purpose; matched as whole words, case and punctuation
// ignored.
var refused = []struct{ term, group string }{
	{"gucci", "trademark"}, {"louis vuitton", "trademark"}, {"chanel", "trademark"},
	{"burberry", "trademark"}, {"disney", "trademark"}, {"nike", "trademark"},
	{"fendi", "trademark"},
	{"nazi", "hate"}, {"swastika", "hate"}, {"kkk", "hate"},
}

func refusedVocab() tasks.Vocabulary {
	var values []tasks.VocabValue
	for _, r := range refused {
		values = append(values, tasks.VocabValue{Value: r.term, Label: r.term, Group: r.group,
			Description: "Refused: " + map[string]string{"trademark": "a brand's name or mark; designs must not copy or name " +
				"it.", "hate": "a hate symbol or slur."}[r.group]})
	}
	return tasks.Vocabulary{
		Name: "refused_term",
		Description: "The content policy of prompts: a prompt naming one of these terms (whole words, case and " +
			"punctuation ignored) is refused with content_refused.",
		Values:  values,
		Concept: new("content_policy"),
		UsedIn: []tasks.UsedIn{
			{Where: "design.from_prompt", Field: "prompt", Direction: "input"},
			{Where: "design.from_prompt", Field: "references", Direction: "input"},
		},
		Groups: []tasks.VocabGroup{
			{
				Name:        "trademark",
				Description: "Brand names and marks: a pattern naming them would copy a protected design.",
			},
			{Name: "hate", Description: "Hate symbols and slurs."},
		},
	}
}

// motifs are motifs a brief may name that no pattern kind draws, with
// the words that name each. A brief naming one is refused at once
// (request_refused) rather than drawn as something else. The list is one
// field's reading rule, so it is described in the task's docs, not served
// as a vocabulary.
var motifs = []struct {
	value string
	words []string
}{
	{"floral", []string{"florals", "flower", "flowers", "flowery", "roses", "daisies", "daisy", "blossom",
		"blossoms", "botanical", "liberty"}},
	{"paisley", []string{"paisleys", "boteh"}},
	{"animal print", []string{"leopard", "cheetah", "zebra", "tiger", "snakeskin", "snake", "giraffe", "cow print"}},
	{"camouflage", []string{"camo"}},
	{"damask", []string{"brocade", "baroque"}},
	{"toile", []string{"toile de jouy"}},
	{"ikat", nil},
	{"argyle", nil},
	{"herringbone", []string{"chevron weave"}},
	{"foliage", []string{"leaf", "leaves", "palm", "palms", "tropical", "fern", "ferns"}},
	{"fruit", []string{"fruits", "lemons", "cherries", "strawberries"}},
	{"stars", []string{"star"}},
	{"hearts", []string{"heart"}},
	{"abstract", []string{"brushstrokes", "brush strokes", "watercolour", "watercolor", "marble", "marbled",
		"tie dye", "tie-dye"}},
	{"ogee", []string{"trellis", "quatrefoil", "moroccan", "medallion", "medallions"}},
	{"conversational", []string{"novelty", "animals", "birds", "bird", "dogs", "cats"}},
}

// motifPhrases are the motifs as phrases, read before anything else.
func motifPhrases() []phrase {
	var v tasks.Vocabulary
	for _, m := range motifs {
		v.Values = append(v.Values, tasks.VocabValue{Value: m.value, Aliases: m.words})
	}
	return phrases(v)
}

// motifNames lists the motifs not drawn, for the docs.
func motifNames() string {
	names := make([]string, len(motifs))
	for i, m := range motifs {
		names[i] = m.value
	}
	return strings.Join(names, ", ")
}
