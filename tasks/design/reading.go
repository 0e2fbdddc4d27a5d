package design

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"unicode"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pattern"
)

// reading is what a brief was read as.
type reading struct {
	colours []namedColour
	// kind is the pattern kind named, "" when none was.
	kind         string
	scale, mood  string
	refused      []string
	wordsNotRead []string
	// notDrawn are the motifs named that no pattern kind draws (floral).
	notDrawn []string
}

// namedColour is a colour read from the brief or a reference.
type namedColour struct {
	name, hex, source string
}

// words splits text into lower-case words: letters and digits, everything
// else a separator.
func words(text string) []string {
	return strings.FieldsFunc(
		strings.ToLower(text),
		func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) },
	)
}

// phrase is a vocabulary entry as words, with the value it reads as.
type phrase struct {
	words []string
	value string
}

// phrases lists each value of a vocabulary under its value, label and
// aliases, longest first, so "forest green" wins over "green".
func phrases(v tasks.Vocabulary) []phrase {
	var out []phrase
	for _, x := range v.Values {
		for _, text := range append([]string{x.Value, strings.ReplaceAll(x.Value, "_", " "), x.Label}, x.Aliases...) {
			if w := words(text); len(w) > 0 {
				out = append(out, phrase{w, x.Value})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b phrase) int { return len(b.words) - len(a.words) })
	return out
}

// colourPhrases is colour_name as phrases, with each
// value's reference colour.
func colourPhrases() ([]phrase, map[string]string) {
	hexes := map[string]string{}
	var v tasks.Vocabulary
	for _, c := range colour.Names() {
		hexes[c.Value] = c.Hex
		v.Values = append(v.Values, tasks.VocabValue{Value: c.Value, Label: c.Label, Aliases: c.Aliases})
	}
	return phrases(v), hexes
}

// familyWords maps a colour family's own word (green, blue, grey …) to the
// family: "sage green" is sage, the word green only saying which family.
func familyWords() (words map[string]string, groups map[string]string) {
	words, groups = map[string]string{"gray": "neutral"}, map[string]string{}
	for _, c := range colour.Names() {
		groups[c.Value] = c.Group
		if c.Value == c.Group || c.Value == "grey" {
			words[c.Value] = c.Group
		}
	}
	return words, groups
}

// familyFollows says whether word w, after the colour value, only names the
// colour's family: sage then green, navy then blue, charcoal then grey. A
// family's own colour (green, grey) and black and white take no such word.
func familyFollows(value, w string, words, groups map[string]string) bool {
	g, ok := words[w]
	_, own := words[value]
	return ok && !own && value != "white" && value != "black" && groups[value] == g
}

// match is the phrase of ps starting at word i, if any.
func match(ps []phrase, w []string, i int) (phrase, bool) {
	for _, p := range ps {
		if i+len(p.words) <= len(w) && slices.Equal(w[i:i+len(p.words)], p.words) {
			return p, true
		}
	}
	return phrase{}, false
}

// grounds are the words that make the colour before them the ground.
var grounds = []string{"ground", "background", "base", "backdrop"}

// fillers are words a brief uses that carry nothing to read; they are not
// reported as unread.
var fillers = []string{
	"a",
	"an",
	"and",
	"the",
	"with",
	"on",
	"in",
	"of",
	"for",
	"scale",
	"pattern",
	"print",
	"design",
	"colour",
	"color",
	"colours",
	"colors",
	"tones",
	"some",
	"very",
	"little",
	"bit",
	"plus",
	"or",
	"to",
	"is",
	"it",
	"by",
	"at",
}

// read reads a brief against the served vocabularies.
func read(prompt string) reading {
	w := words(prompt)
	var r reading
	for _, t := range refused {
		tw := words(t.term)
		for i := range w {
			if i+len(tw) <= len(w) && slices.Equal(w[i:i+len(tw)], tw) {
				r.refused = append(r.refused, t.term)
				break
			}
		}
	}
	colours, hexes := colourPhrases()
	kinds, scaleWords, moodWords := phrases(pattern.KindVocab()), phrases(scaleVocab()), phrases(moodVocab())
	notDrawn := motifPhrases()
	family, groups := familyWords()
	var ground *namedColour
	for i := 0; i < len(w); {
		if p, ok := match(notDrawn, w, i); ok {
			r.notDrawn = append(r.notDrawn, strings.Join(w[i:i+len(p.words)], " "))
			i += len(p.words)
			continue
		}
		if p, ok := match(colours, w, i); ok {
			c := namedColour{name: p.value, hex: hexes[p.value], source: "prompt"}
			next := i + len(p.words)
			if next < len(w) && familyFollows(p.value, w[next], family, groups) {
				next++
			}
			isGround := next < len(w) && slices.Contains(grounds, w[next])
			switch {
			case isGround && ground == nil:
				ground = &c
				next++
			case !slices.ContainsFunc(r.colours, func(x namedColour) bool { return x.name == c.name }):
				r.colours = append(r.colours, c)
			}
			i = next
			continue
		}
		if p, ok := match(kinds, w, i); ok {
			if r.kind == "" {
				r.kind = p.value
			}
			i += len(p.words)
			continue
		}
		if p, ok := match(scaleWords, w, i); ok {
			if r.scale == "" {
				r.scale = p.value
			}
			i += len(p.words)
			continue
		}
		if p, ok := match(moodWords, w, i); ok {
			if r.mood == "" {
				r.mood = p.value
			}
			i += len(p.words)
			continue
		}
		if !slices.Contains(fillers, w[i]) && !slices.Contains(grounds, w[i]) {
			r.wordsNotRead = append(r.wordsNotRead, w[i])
		}
		i++
	}
	if ground != nil {
		r.colours = slices.Insert(
			slices.DeleteFunc(r.colours, func(x namedColour) bool { return x.name == ground.name }),
			0,
			*ground,
		)
	}
	return r
}

// withMood applies the brief's mood to a colour.
func withMood(mood, hex string) string {
	c := tasks.ParseColour(hex)
	grey := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	mix := func(v uint8, target, t float64) uint8 {
		return uint8(max(0, min(255, float64(v)+(target-float64(v))*t)) + 0.5)
	}
	var f func(v uint8) uint8
	switch mood {
	case "calm":
		f = func(v uint8) uint8 { return mix(v, grey, 0.30) }
	case "pastel":
		f = func(v uint8) uint8 { return mix(v, 255, 0.45) }
	case "dark":
		f = func(v uint8) uint8 { return mix(v, 0, 0.35) }
	case "bold":
		f = func(v uint8) uint8 { return mix(v, grey, -0.25) }
	default:
		return strings.ToUpper(hex)
	}
	m := color.RGBA{f(c.R), f(c.G), f(c.B), 255}
	return fmt.Sprintf("#%02X%02X%02X", m.R, m.G, m.B)
}
