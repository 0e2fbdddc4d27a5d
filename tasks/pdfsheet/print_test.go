package pdfsheet

import (
	"bytes"
	"compress/zlib"
	"image"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// TestCMYKPrintCarriesItsProfile makes a CMYK print file of teal
// #3E8E94 through Ghostscript's CMYK profile (Debian's libgs-common): the
// art's samples are the profile's C79 M30 Y41 K4 (not the formula's C58
// M4 Y0 K42), the catalog declares the output intent, its profile is the
// profile's exact bytes, and poppler reads the file.
func TestCMYKPrintCarriesItsProfile(t *testing.T) {
	require.NoError(t, colour.SetPress("ghostscript"), "install Debian's libgs-common for this test")
	t.Cleanup(func() { _ = colour.SetPress("auto") })
	press := colour.CurrentPress()
	art := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for i := 0; i < len(art.Pix); i += 4 {
		copy(art.Pix[i:], []byte{0x3E, 0x8E, 0x94, 0xff})
	}
	pdf, err := Print{Title: "teal", TrimWMM: 20, TrimHMM: 15, BleedMM: 3, Art: art, CMYK: true, Press: press,
		Slug: "teal"}.Bytes()
	require.NoError(t, err)
	require.Contains(t, string(pdf), "/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX")
	require.Contains(t, string(pdf), "/Info (Artifex CMYK SWOP Profile) /DestOutputProfile 9 0 R")

	streams := map[string][]byte{}
	re := regexp.MustCompile(`(?s)<< ([^>]*?) /Length (\d+) >>\nstream\n`)
	for _, m := range re.FindAllSubmatchIndex(pdf, -1) {
		n, _ := strconv.Atoi(string(pdf[m[4]:m[5]]))
		zr, err := zlib.NewReader(bytes.NewReader(pdf[m[1] : m[1]+n]))
		if err != nil {
			continue
		}
		data, err := io.ReadAll(zr)
		require.NoError(t, err)
		streams[string(pdf[m[2]:m[3]])] = data
	}
	var samples, profile []byte
	for dict, data := range streams {
		if bytes.Contains([]byte(dict), []byte("/DeviceCMYK /BitsPerComponent 8")) {
			samples = data
		}
		if bytes.HasPrefix([]byte(dict), []byte("/N 4")) {
			profile = data
		}
	}
	require.Equal(t, press.ICC(), profile, "the output intent embeds the profile whole")
	require.Len(t, samples, 4*40*30)
	pct := func(v byte) float64 { return float64(v) / 2.55 }
	for i, want := range []float64{78.7, 29.9, 41.4, 3.7} { // transicc -t1
		require.InDelta(t, want, pct(samples[i]), 1.0, "ink %d of the first pixel", i)
	}

	path := filepath.Join(t.TempDir(), "teal.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o644))
	out, err := exec.Command("pdfinfo", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Regexp(t, `Pages:\s+1\n`, string(out))
	require.NotContains(t, string(out), "Error", "poppler reads the file without complaint")
}
