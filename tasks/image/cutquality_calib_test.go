package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The cut quality's calibration: every set with truth cut out as the task
// does (cutOutGlass, tolerance 12, feather 2), each shot's quality
// estimate beside its IoU (the set's own: the silhouette's for glass).

// qualityRow is one shot: its set, name, IoU and quality.
type qualityRow struct {
	set, name string
	iou       float64
	q         cutQuality
	res       cutout // the cut's record (its img released)
	cut, read time.Duration
	refused   bool // the cut-out refused the shot (kept by rememberCut only)
}

// shotCuts holds each shot's row, by shot name, as a set's floor test cut
// it (measureFifth calls rememberCut): TestCutQualityCalibration, which
// runs after the set tests in the same test binary, reads those rows
// instead of cutting every shot a second time. Run alone, it cuts them.
var shotCuts sync.Map // shot name → qualityRow

// rememberCut records the cut of shot s (its truth t) for the calibration,
// without its pixels.
func rememberCut(s shot, t truth, res cutout, err error, cut time.Duration) {
	if err != nil {
		shotCuts.Store(s.name, qualityRow{name: s.name, refused: true})
		return
	}
	start := time.Now()
	row := qualityRow{name: s.name, q: readCutQuality(t.img, res.img), cut: cut}
	row.read = time.Since(start)
	row.iou = score(t, res.img).iou
	if s.glass {
		row.iou = scoreGlass(t, res).iou
	}
	row.res = res
	row.res.img, row.res.clearBody = nil, nil
	shotCuts.Store(s.name, row)
}

// calibrationRows cuts out every shot of every set with truth.
// CUTQUALITY_SETS=",ninth,holes," cuts only those sets of shots (no
// scenes); CUTQUALITY_DUMP=/some/dir writes each input, its cut-out and a
// line of index.tsv (set, name, IoU, drawn, unseen, object share,
// see-through share, cut ms), to measure new evidence on without cutting
// again.
func calibrationRows(tb testing.TB) []qualityRow {
	var rows []qualityRow
	only := os.Getenv("CUTQUALITY_SETS")
	one := func(set, name string, t truth, glass bool) {
		start := time.Now()
		res, err := cutOutGlass(context.Background(), t.img, 12, 2, false)
		cut := time.Since(start)
		if err != nil {
			return // refused: not delivered, nothing to flag
		}
		start = time.Now()
		q := readCutQuality(t.img, res.img)
		read := time.Since(start)
		iou := score(t, res.img).iou
		if glass {
			iou = scoreGlass(t, res).iou
		}
		if dir := os.Getenv("CUTQUALITY_DUMP"); dir != "" {
			writePNG(tb, filepath.Join(dir, set+"__"+name+"_in.png"), t.img)
			writePNG(tb, filepath.Join(dir, set+"__"+name+"_out.png"), res.img)
			f, err := os.OpenFile(filepath.Join(dir, "index.tsv"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintf(f, "%s\t%s\t%.4f\t%v\t%.4f\t%.4f\t%.4f\t%d\n", set, name, iou, res.inferred, res.unseen,
					res.objectShare, res.seeThrough, cut.Milliseconds())
				_ = f.Close()
			}
		}
		rows = append(rows, qualityRow{set: set, name: name, iou: iou, q: q, res: res, cut: cut, read: read})
		releaseImage(res.img)
	}
	for _, set := range []struct {
		name   string
		scenes []scene
		glass  bool
	}{
		{"truth", truthScenes(), false}, {"light", lightScenes(), false},
		{"varied", variedScenes(false), false}, {"heldout", variedScenes(true), false},
		{"fresh", freshScenes(), false}, {"photo", photoScenes(), false}, {"glass", glassScenes(), true},
		{"ribbon", ribbonScenes(), false}, {"glassfresh", glassFreshScenes(), true},
	} {
		if only != "" {
			continue
		}
		for _, s := range set.scenes {
			one(set.name, s.name, s.render(), set.glass)
		}
	}
	for _, set := range []struct {
		name  string
		shots []shot
	}{
		{"fifth", fifthShots()}, {"sixth", sixthShots()}, {"shine", shineShots()}, {"pile", pileShots()},
		{"seventh", seventhShots()}, {"eighth", eighthShots()}, {"ninth", ninthShots()},
		{"whitebody", whiteBodyShots()}, {"hue", hueShots()}, {"texture", textureShots()}, {"bands", bandsShots()},
		{"holes", holesShots()}, {"tonal", tonalShots()}, {"framecut", frameCutShots()},
	} {
		if only != "" && !strings.Contains(only, ","+set.name+",") {
			continue
		}
		for _, s := range set.shots {
			if v, ok := shotCuts.Load(s.name); ok && os.Getenv("CUTQUALITY_DUMP") == "" {
				if r := v.(qualityRow); !r.refused {
					r.set = set.name
					rows = append(rows, r)
				}
				continue
			}
			one(set.name, s.name, s.photograph(), s.glass)
		}
	}
	return rows
}

// BenchmarkCutQuality prints each shot's (quality, IoU) and the confusion
// table at minCutQuality: go test -run '^$' -bench CutQuality -benchtime
// 1x ./tasks/image.
func BenchmarkCutQuality(b *testing.B) {
	var rows []qualityRow
	for range b.N {
		rows = calibrationRows(b)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].q.score < rows[j].q.score })
	var cut, read time.Duration
	for _, r := range rows {
		fmt.Fprintf(os.Stdout, "%-10s %-34s IoU %.3f quality %.3f (on an edge %.3f, missed %.3f, parts %.3f) "+
			"outline %d noise %.0f drawn %v unseen %.3f\n", r.set, r.name, r.iou, r.q.score, r.q.share, r.q.missed,
			r.q.parts, r.q.outline, r.q.noiseStep, r.res.inferred, r.res.unseen)
		cut += r.cut
		read += r.read
	}
	c := confusion(rows, minCutQuality)
	fmt.Fprintf(os.Stdout, "flagged: %d bad (IoU < 0.9), %d middling, %d good (IoU >= 0.95); "+
		"passed: %d bad, %d middling, %d good\n", c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2])
	under, caught := 0, 0
	for _, r := range rows {
		if r.iou < 0.85 {
			under++
			if flagged(r, minCutQuality) {
				caught++
			}
		}
	}
	fmt.Fprintf(os.Stdout, "flagged %d of the %d under IoU 0.85\n", caught, under)
	lowGood, highBad := margin(rows, minCutQuality)
	fmt.Fprintf(os.Stdout, "lowest good %.3f, highest flagged bad %.3f\n", lowGood, highBad)
	b.ReportMetric(float64(read)/float64(cut), "qualityCostRatio")
}

// TestCutQualityCalibration cuts out every set with truth and holds the
// flag (cut_quality under minCutQuality, or an outline drawn where no
// edge shows: the task's warnings) to what a user notices: at most
// maxGoodFlagged good cut-outs (IoU ≥ 0.95) are warned and left uncharged,
// and at least two fifths of the bad ones (IoU < 0.9) are (22 of 52 when
// the threshold was set), and at least minBadFlagged of them. The shots
// the set tests cut before it in this binary are read from shotCuts, not
// cut again.
func TestCutQualityCalibration(t *testing.T) {
	rows := calibrationRows(t)
	c := confusion(rows, minCutQuality)
	for _, r := range rows {
		if r.iou < 0.9 && !flagged(r, minCutQuality) {
			t.Logf("passed though bad: %s/%s IoU %.3f quality %.3f", r.set, r.name, r.iou, r.q.score)
		}
		if r.iou >= 0.95 && flagged(r, minCutQuality) {
			t.Logf("flagged though good: %s/%s IoU %.3f quality %.3f", r.set, r.name, r.iou, r.q.score)
		}
	}
	t.Logf("%d cut-outs; flagged: %d bad (IoU < 0.9), %d middling, %d good (IoU >= 0.95); passed: %d bad, "+
		"%d middling, %d good", len(rows), c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2])
	require.LessOrEqual(t, c[0][2], maxGoodFlagged, "good cuts flagged: %d of %d", c[0][2], c[0][2]+c[1][2])
	bad := c[0][0] + c[1][0]
	require.Positive(t, bad, "the sets hold bad cuts to flag")
	require.GreaterOrEqual(t, 5*c[0][0], 2*bad, "bad cuts flagged: %d of %d", c[0][0], bad)
	if os.Getenv("CUTQUALITY_SETS") == "" {
		require.GreaterOrEqual(t, c[0][0], minBadFlagged, "bad cuts flagged: %d of %d", c[0][0], bad)
	}
}

// minBadFlagged is the fewest bad cuts of all the sets with truth that
// TestCutQualityCalibration must flag: one under what it flags. It was 32
// (33 of 53 flagged with a cast shadow kept and thin or pale parts left
// read, cutkept.go); since the drawn fills were kept (the ninth's cat, a
// bad cut passed, now 0.996) and the texture stage's outline was settled on
// the product's edge (a wallet on wood and a grey speaker on concrete, bad
// cuts flagged, now 0.95 and 0.97; a box on kraft, 0.74 → 0.91), 30 of the
// 49 left were flagged; with the parts as pale as the backdrop left closed
// off beside the cut read (paleParts, cutpale.go: two tumblers without
// their lid or their clear top, a pile without its white box, a rose
// perfume without its pale foot), 34; and since the clear perfume, a bad
// cut flagged, is filled to its outline (0.62 → 0.976), 33 of the 48 left.
// Since pale parts walled in by their own faint edge are given back
// (withPaleParts), three flagged bad cuts are good (a cream mug on linen
// 0.41 → 0.91, a translucent tumbler 0.85 → 0.99, a rose perfume 0.89 →
// 0.98), a towel cut by the frame passed at 0.53 is 0.998 and three sets
// joined (211 cut-outs): 29 of the 45 bad cuts left are flagged, the ones
// passed as before (a tote cut by the frame at 0.81 reads 0.94).
const minBadFlagged = 28

// maxGoodFlagged is the most good cuts (IoU ≥ 0.95) the flag may warn: a
// pale speaker whose outline was drawn. It was 3 with a wallet on wood and
// a grey speaker on concrete, whose steps on the grain were read against
// the border's darker vignette (quality 0.50 and 0.49): read against the
// brightness around each step (missedEdges), they are 0.69 and 0.70, the
// speaker's specks of grain dropped besides (dropGrainSpecks). Reading the
// pale parts left (paleParts) flags no good cut more: a chair's and a
// stool's floor between their legs is closed by the legs, not by an
// outline of its own (paleOwnRim).
const maxGoodFlagged = 1

// margin is the lowest quality of a good cut (IoU ≥ 0.95) and the highest
// of a bad one (IoU < 0.9) under the threshold.
func margin(rows []qualityRow, threshold float64) (lowGood, highBad float64) {
	lowGood = 1
	for _, r := range rows {
		if r.iou >= 0.95 {
			lowGood = min(lowGood, r.q.score)
		}
		if r.iou < 0.9 && flagged(r, threshold) {
			highBad = max(highBad, r.q.score)
		}
	}
	return lowGood, highBad
}

// flagged tells whether the task warns row r's cut-out and does not charge
// it (Step: judge, then warnInferred).
func flagged(r qualityRow, threshold float64) bool {
	return r.q.score < threshold || r.res.inferred
}

// confusion counts the rows flagged ([0]) and passed ([1]) by IoU class:
// under 0.9, 0.9 to 0.95, 0.95 and over.
func confusion(rows []qualityRow, threshold float64) [2][3]int {
	var c [2][3]int
	for _, r := range rows {
		i, j := 1, 1
		if flagged(r, threshold) {
			i = 0
		}
		switch {
		case r.iou < 0.9:
			j = 0
		case r.iou >= 0.95:
			j = 2
		}
		c[i][j]++
	}
	return c
}
