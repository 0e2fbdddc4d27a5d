// Package palette is the palette family: palette.generate, which builds
// colour harmonies around one base colour and draws them as SVG swatch
// sheets, with its colour code, vocabulary and concept.
package palette

import "github.com/taskplatform/taskplatform/tasks"

// Family is everything the palette family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:         "palette",
		Tasks:        []*tasks.Definition{generate()},
		Vocabularies: []tasks.Vocabulary{schemeVocab()},
		Concepts: []tasks.Concept{{
			Name: "colour_harmony", Short: "A set of colours chosen by their places on the colour wheel around a base colour.",
			Long: "Harmonies (vocabulary colour_scheme) turn one base colour into a palette: complementary pairs " +
				"opposites, analogous takes neighbours, triadic spaces three colours evenly, monochromatic varies lightness. " +
				"palette.generate draws each as a sheet whose data lists the colours; send them as colors to pattern.generate.",
			Related: []string{"seamless_tile"},
		}},
	}
}

// schemeVocab is the colour_scheme vocabulary: the harmonies palette.generate draws.
func schemeVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(schemes))
	for i, s := range schemes {
		values[i] = tasks.VocabValue{Value: s.value, Label: s.label, Description: s.text, ChooseWhen: s.when}
	}
	return tasks.Vocabulary{
		Name: "colour_scheme", Description: "A colour harmony: how colours are chosen around a base colour on the colour " +
			"wheel.",
		Values: values, Concept: new("colour_harmony"),
	}
}
