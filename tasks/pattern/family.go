// Package pattern is the pattern family: pattern.generate (seamless tiles
// of stripes, checks, dots and more), pattern.repeat (a motif laid out as
// repeat tiles), the deprecated pattern.stripes and the removed
// pattern.legacy, with their renderers, vocabularies, concept and recipes.
package pattern

import "github.com/taskplatform/taskplatform/tasks"

// Family is everything the pattern family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:         "pattern",
		Tasks:        []*tasks.Definition{generate(), repeat(), stripes(), legacy()},
		Vocabularies: []tasks.Vocabulary{kindVocab(), layoutVocab()},
		Concepts: []tasks.Concept{{
			Name: "seamless_tile", Short: "An image whose edges continue each other, so copies laid side by side show no seam.",
			Long: "A seamless tile repeats without a visible join: the pixel after the right edge is the left edge's, the " +
				"pixel below the bottom is the top's. Tiles can be printed on fabric or paper of any size, or used as " +
				"backgrounds. pattern.generate draws only seamless tiles; use_case and repeats set how large the motif is " +
				"within the tile.",
			Related: []string{"output_resolution", "seed", "task_variant"},
		}},
		Recipes: recipes(),
	}
}
