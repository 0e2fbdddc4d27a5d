package pattern

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
)

// A tartan's sett is written as its thread count: stripes of colour code
// and threads, "K4 R24 K24 Y4", read from one pivot to the other. A
// symmetric sett (the usual one) is woven there and back: the first and
// last stripes are pivots, woven once, and the stripes between are
// mirrored, so K4 R24 K24 Y4 weaves K4 R24 K24 Y4 K24 R24 and again. A
// slash may mark a pivot (K/4 … Y/4); "..." at an end marks an asymmetric
// sett, woven as written over and over.

// maxSettThreads bounds the threads of one woven repeat.
const maxSettThreads = 2048

// stripe is one stripe of a sett: a colour code and its threads.
type stripe struct {
	code    string
	threads int
}

// sett is a parsed thread count.
type sett struct {
	stripes   []stripe
	symmetric bool
	codes     []string // the codes in order of first appearance
}

var settToken = regexp.MustCompile(`^([A-Za-z]{1,3})(/?)([0-9]{1,4})$`)

// parseSett reads a thread count, answering a clear error naming the
// stripe at fault.
func parseSett(text string) (*sett, *apierr.Error) {
	bad := func(format string, args ...any) *apierr.Error {
		return apierr.Newf(apierr.InvalidRequest, "sett: "+format, args...).WithField("sett")
	}
	t := strings.TrimSpace(text)
	s := &sett{symmetric: true}
	if strings.HasPrefix(t, "...") || strings.HasSuffix(t, "...") {
		s.symmetric = false
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "..."), "..."))
	}
	tokens := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(tokens) < 2 {
		return nil, bad("%q has %d stripes; a sett is at least two stripes of colour code and thread count, "+
			"as in \"K4 R24 K24 Y4\".", text, len(tokens))
	}
	seen := map[string]bool{}
	for i, tok := range tokens {
		m := settToken.FindStringSubmatch(tok)
		if m == nil {
			return nil, bad("stripe %d, %q, is not a colour code (1 to 3 letters) followed by a thread count, as "+
				"K4 or R24.", i+1, tok)
		}
		if m[2] == "/" && (i != 0 && i != len(tokens)-1 || !s.symmetric) {
			return nil, bad("stripe %d, %q: a slash marks a pivot, only the first or last stripe of a symmetric sett.",
				i+1, tok)
		}
		n, _ := strconv.Atoi(m[3])
		if n < 1 {
			return nil, bad("stripe %d, %q, has no threads; each stripe has 1 or more.", i+1, tok)
		}
		code := strings.ToUpper(m[1])
		if len(s.stripes) > 0 && s.stripes[len(s.stripes)-1].code == code {
			return nil, bad("stripes %d and %d are both %s; write one stripe of %d threads.", i, i+1, code,
				s.stripes[len(s.stripes)-1].threads+n)
		}
		if !seen[code] {
			seen[code] = true
			s.codes = append(s.codes, code)
		}
		s.stripes = append(s.stripes, stripe{code, n})
	}
	if n := len(s.threads()); n > maxSettThreads {
		return nil, bad("the sett weaves %d threads a repeat; at most %d.", n, maxSettThreads)
	}
	return s, nil
}

// woven is the stripes of one woven repeat: a symmetric sett there and
// back, its pivots once.
func (s *sett) woven() []stripe {
	out := append([]stripe(nil), s.stripes...)
	if s.symmetric {
		for i := len(s.stripes) - 2; i >= 1; i-- {
			out = append(out, s.stripes[i])
		}
	}
	return out
}

// threads is the colour code index of each thread of one woven repeat.
func (s *sett) threads() []int {
	index := map[string]int{}
	for i, c := range s.codes {
		index[c] = i
	}
	var out []int
	for _, st := range s.woven() {
		for range st.threads {
			out = append(out, index[st.code])
		}
	}
	return out
}

// String is the sett as woven, for the data.
func (s *sett) String() string {
	var parts []string
	for _, st := range s.stripes {
		parts = append(parts, fmt.Sprintf("%s%d", st.code, st.threads))
	}
	if !s.symmetric {
		return "..." + strings.Join(parts, " ") + "..."
	}
	return strings.Join(parts, " ")
}
