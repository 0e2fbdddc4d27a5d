package colour

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNameOfWords reads free colour names as the vocabulary's values.
func TestNameOfWords(t *testing.T) {
	for text, want := range map[string]string{
		"forest":       "forest",
		"forest green": "forest",
		"Forest Green": "forest",
		"bottle green": "forest",
		"dark green":   "forest",
		"deep forest":  "forest",
		"navy blue":    "navy",
		"dusty rose":   "blush",
		"sky blue":     "sky_blue",
		"sky_blue":     "sky_blue",
		"green":        "green",
		"light grey":   "silver",
	} {
		n, ok := NameOfWords(text)
		require.True(t, ok, text)
		require.Equal(t, want, n.Value, text)
	}
	for _, text := range []string{"", "sparkly", "#1F4A2C", "not a colour"} {
		_, ok := NameOfWords(text)
		require.False(t, ok, text)
	}
}
