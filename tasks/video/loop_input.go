package video

import "github.com/taskplatform/taskplatform/tasks"

// loopInput is a video.pattern_loop request, defaults applied.
type loopInput struct {
	Tile      string `json:"tile" schema:"required"`
	Direction string `json:"direction"`
	Seconds   int    `json:"seconds"`
	Repeats   int    `json:"repeats"`
	Size      string `json:"size"`
	Format    string `json:"format"`
	Mirror    bool   `json:"mirror"`
}

// fieldSchemas are the schema keywords of each field (tasks.DerivedSchema):
// the formats are the ones this service's ffmpeg writes.
func (loopInput) fieldSchemas(o Options) map[string]any {
	props := obj{
		"tile": obj{"pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "A seamless pattern tile: an art: handle (from pattern.generate or pattern.repeat), a file: " +
				"handle (POST /v1/files) or a public https URL.",
			"examples": []any{"art:def456", "file:abc123"}},
		"direction": tasks.VocabEnum(directionVocab(), "Which way the pattern moves."),
		"seconds": obj{
			"minimum":     1,
			"maximum":     20,
			"default":     4,
			"description": "The length of one loop in seconds: the pattern moves one tile length in this time.",
		},
		"repeats": obj{
			"minimum": 1,
			"maximum": 8,
			"default": 3,
			"description": "About how many tiles fit across the frame's shorter side; the exact tile size makes the motion a " +
				"whole number of pixels per frame.",
		},
		"mirror": obj{"default": false,
			"description": "Mirror the tile into a block of four (it, flipped left to right, flipped top to bottom, " +
				"turned half round), which always repeats seamlessly: for a tile whose edges do not continue each other " +
				"(its data says seamless false and the job warns tile_not_seamless). The block is twice the tile's size, " +
				"scaled like a tile."},
		"size":   tasks.VocabEnum(sizeVocab(), "The frame size, WIDTHxHEIGHT."),
		"format": tasks.VocabEnum(formatVocab(o), "The file format. "+o.formats()),
	}
	return props
}
