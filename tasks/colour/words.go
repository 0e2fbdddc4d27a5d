package colour

import (
	"strings"
	"unicode"
)

// NameOfWords reads a colour named in words ("forest green", "Navy blue",
// "dusty rose", "deep forest") as the colour_name it names: the value,
// label or an alias that makes up the most of its words, a colour's own
// word winning over its family's word (forest green is forest, not green).
// It is false when none of the words names a colour.
func NameOfWords(text string) (Name, bool) {
	w := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	best, bestLen, found := Name{}, 0, false
	for _, n := range names {
		for _, p := range append([]string{n.Value, strings.ReplaceAll(n.Value, "_", " "), n.Label}, n.Aliases...) {
			pw := strings.Fields(strings.ToLower(strings.ReplaceAll(p, "_", " ")))
			if len(pw) == 0 || !containsRun(w, pw) {
				continue
			}
			family := n.Value == n.Group // green, blue, grey…: the family's own word
			switch {
			case !found, len(pw) > bestLen,
				len(pw) == bestLen && best.Value == best.Group && !family:
				best, bestLen, found = n, len(pw), true
			}
		}
	}
	return best, found
}

// containsRun says whether words holds run as consecutive words.
func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		same := true
		for j := range run {
			same = same && words[i+j] == run[j]
		}
		if same {
			return true
		}
	}
	return false
}
