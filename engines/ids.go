package engines

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
)

// newPredictionID is a fresh prediction id; the engine is told it, so a
// prediction can be cancelled before its first answer.
func newPredictionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return predictionID(b)
}

// stepPredictionID is the prediction id of a step's attempt (0: of every
// attempt).
func stepPredictionID(job string, index, attempt int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/%d", job, index, attempt))
	return predictionID(sum[:16])
}

// predictionID writes 16 bytes as Cog suggests: base32, lower case, no
// padding (26 characters).
func predictionID(b []byte) string {
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}
