// Package design is the design_generation family of tasks that start from
// words: design.from_prompt reads a short design brief ("navy and mustard
// houndstooth, small scale, with a cream ground") for colour names, a
// pattern kind, a scale and a mood, reads the palettes of reference
// images, and draws seamless pattern tiles with the pattern family's
// renderer. It is a deterministic reading of words from served
// vocabularies, never a generative model; a small, served content policy
// refuses briefs that name trademarks or slurs.
package design

import "github.com/taskplatform/taskplatform/tasks"

type obj = map[string]any

// Family is everything the design family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:         "design",
		Tasks:        []*tasks.Definition{fromPrompt()},
		Vocabularies: []tasks.Vocabulary{scaleVocab(), moodVocab(), refusedVocab()},
		Concepts: []tasks.Concept{{
			Name: "prompt_reading", Short: "How a design brief in words was read: its colours, pattern kind, scale and mood.",
			Long: "design.from_prompt does not interpret a brief the way a generative model would: it looks its words up " +
				"in served vocabularies — colour_name for colours, pattern_kind (with each kind's aliases) for the motif, " +
				"design_scale and design_mood — and reports what it read, and the words it did not, in every tile's data " +
				"(reading). A brief that reads wrong is corrected by using the vocabularies' words.",
			Related: []string{"seamless_tile", "content_policy"},
		}, {
			Name: "content_policy", Short: "The words a prompt may not use: a short, served list of trademarks and slurs.",
			Long: "Tasks that take a prompt refuse one that names a term of the refused_term vocabulary (GET " +
				"/v1/vocab/refused_term), matched as whole words with case and punctuation ignored: 422 content_refused at " +
				"submit. Reference images are checked when the job reads them: a reference whose embedded text (PNG text " +
				"chunks, JPEG comments) names a refused term fails the job with content_refused.",
			Related: []string{"prompt_reading"},
		}},
	}
}
