package colour

import (
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/taskplatform/taskplatform/tasks/icc"
)

// GhostscriptCMYK is where Debian's libgs-common installs Ghostscript's
// CMYK output profile, "Artifex CMYK SWOP Profile": the profile used when
// the operator names none and the package is installed.
const GhostscriptCMYK = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

// Press is the service's conversion of sRGB to CMYK: through an ICC output
// profile, or — where none is set or installed — the formula of
// FormulaCMYK, which every label then says.
type Press struct {
	profile *icc.Profile
	table   *lazyTable
}

// lazyTable builds a profile's pixel table on its first use.
type lazyTable struct {
	once sync.Once
	t    *rgbTable
}

var (
	pressMu  sync.Mutex
	pressSet bool
	press    Press
)

// SetPress chooses the CMYK conversion from TP_CMYK_PROFILE's value: empty
// or "auto" for Ghostscript's profile where it is installed (else the
// formula), "ghostscript" for that profile (an error where it is not
// installed), "formula" for the formula, or the path of an ICC profile.
func SetPress(setting string) error {
	p, err := loadPress(strings.TrimSpace(setting))
	if err != nil {
		return err
	}
	pressMu.Lock()
	defer pressMu.Unlock()
	press, pressSet = p, true
	return nil
}

// CurrentPress is the conversion SetPress chose; unset, the "auto" one.
func CurrentPress() Press {
	pressMu.Lock()
	defer pressMu.Unlock()
	if !pressSet {
		press, _ = loadPress("auto")
		pressSet = true
	}
	return press
}

func loadPress(setting string) (Press, error) {
	path := setting
	switch setting {
	case "formula":
		return Press{}, nil
	case "", "auto":
		if _, err := os.Stat(GhostscriptCMYK); errors.Is(err, fs.ErrNotExist) {
			return Press{}, nil
		}
		path = GhostscriptCMYK
	case "ghostscript":
		path = GhostscriptCMYK
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Press{}, fmt.Errorf("read the CMYK profile: %w", err)
	}
	p, err := icc.Parse(data)
	if err != nil {
		return Press{}, fmt.Errorf("CMYK profile %s: %w", path, err)
	}
	return Press{profile: p, table: &lazyTable{}}, nil
}

// Profiled tells whether the press converts through an ICC profile.
func (p Press) Profiled() bool { return p.profile != nil }

// ProfileName is the profile's description, or "" for the formula.
func (p Press) ProfileName() string {
	if p.profile == nil {
		return ""
	}
	return p.profile.Name
}

// ICC is the profile's bytes, for a PDF's output intent; nil for the
// formula.
func (p Press) ICC() []byte {
	if p.profile == nil {
		return nil
	}
	return p.profile.Data
}

// Method says how CMYK values were made, as data and sheets state it.
func (p Press) Method() string {
	if p.profile == nil {
		return "formula (no ICC profile)"
	}
	return "ICC " + p.profile.Name + " (relative colorimetric)"
}

// CMYK converts c to whole percentages of cyan, magenta, yellow and black.
func (p Press) CMYK(c color.Color) [4]int {
	if p.profile == nil {
		return FormulaCMYK(c)
	}
	v := p.profile.CMYK(c)
	return [4]int{pct(v[0]), pct(v[1]), pct(v[2]), pct(v[3])}
}

func pct(v float64) int { return int(math.Round(v)) }

// Pixel converts one 8-bit sRGB pixel to 8-bit CMYK (255 is 100 %): the
// print file's samples, from a 65-point table of the profile interpolated
// tetrahedrally (Little CMS precalculates one of 33 points).
func (p Press) Pixel(r, g, b uint8) (c, m, y, k uint8) {
	if p.profile == nil {
		return FormulaPixel(r, g, b)
	}
	p.table.once.Do(func() { p.table.t = newRGBTable(p.profile) })
	return p.table.t.at(r, g, b)
}

// Label writes c's CMYK as a sheet shows it: "C79 M30 Y41 K4", with
// "(formula)" after it where no profile is used.
func (p Press) Label(c color.Color) string {
	v := p.CMYK(c)
	s := fmt.Sprintf("C%d M%d Y%d K%d", v[0], v[1], v[2], v[3])
	if p.profile == nil {
		s += " (formula)"
	}
	return s
}

// CMYKLabel is CurrentPress().Label(c).
func CMYKLabel(c color.Color) string { return CurrentPress().Label(c) }
