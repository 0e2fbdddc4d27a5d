// Package icc reads an output (printer) ICC profile and converts sRGB
// colours to its CMYK through the profile's tables: sRGB to the profile
// connection space (CIE XYZ or L*a*b*, D50) by the sRGB standard, then the
// profile's BToA table (lut8, lut16 or lutBToA) with its curves, matrix and
// colour look-up table, interpolated trilinearly (L*a*b*) or
// tetrahedrally (XYZ), as Little CMS does. It does no black point
// compensation and reads no absolute intent.
package icc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
)

// ErrProfile is wrapped by every error about a profile that cannot be used.
var ErrProfile = errors.New("unusable ICC profile")

// Profile is a parsed CMYK output profile.
type Profile struct {
	// Name is the profile's description (its desc tag).
	Name string
	// Data is the profile's bytes, to embed as a PDF's output intent.
	Data []byte
	// Intent is the tag the conversion reads: B2A1 (relative colorimetric)
	// or, where the profile has none, B2A0 (perceptual).
	Intent string
	lab    bool
	toCMYK *lut
}

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrProfile, fmt.Sprintf(format, a...))
}

// Parse reads a CMYK output profile (ICC v2 or v4).
func Parse(data []byte) (*Profile, error) {
	if len(data) < 132 || string(data[36:40]) != "acsp" {
		return nil, bad("not an ICC profile (no acsp signature)")
	}
	if space := string(data[16:20]); space != "CMYK" {
		return nil, bad("its device colour space is %q, not CMYK", strings.TrimSpace(space))
	}
	p := &Profile{Data: data}
	switch pcs := string(data[20:24]); pcs {
	case "Lab ":
		p.lab = true
	case "XYZ ":
	default:
		return nil, bad("its connection space is %q, neither Lab nor XYZ", pcs)
	}
	tags, err := readTags(data)
	if err != nil {
		return nil, err
	}
	p.Name = describe(tags["desc"])
	for _, sig := range []string{"B2A1", "B2A0"} {
		if t, ok := tags[sig]; ok {
			p.Intent = sig
			if p.toCMYK, err = readLut(t, p.lab); err != nil {
				return nil, fmt.Errorf("%s: %w", sig, err)
			}
			break
		}
	}
	if p.toCMYK == nil {
		return nil, bad("it has no B2A0 or B2A1 table (not an output profile)")
	}
	if p.toCMYK.in != 3 || p.toCMYK.out != 4 {
		return nil, bad("its %s table maps %d to %d channels, not 3 to 4", p.Intent, p.toCMYK.in, p.toCMYK.out)
	}
	return p, nil
}

// readTags maps each tag's signature to its data.
func readTags(data []byte) (map[string][]byte, error) {
	n := int(binary.BigEndian.Uint32(data[128:132]))
	if n > 1000 || 132+12*n > len(data) {
		return nil, bad("its tag table is cut short")
	}
	tags := make(map[string][]byte, n)
	for i := range n {
		e := data[132+12*i:]
		off, size := int(binary.BigEndian.Uint32(e[4:8])), int(binary.BigEndian.Uint32(e[8:12]))
		if off < 0 || size < 8 || off+size > len(data) || off+size < off {
			return nil, bad("tag %q lies outside the profile", e[:4])
		}
		tags[string(e[:4])] = data[off : off+size]
	}
	return tags, nil
}

// describe reads a desc tag: a v2 textDescription or a v4
// multiLocalizedUnicode (its first record).
func describe(t []byte) string {
	switch {
	case len(t) >= 12 && string(t[:4]) == "desc":
		n := int(binary.BigEndian.Uint32(t[8:12]))
		if n > 0 && 12+n <= len(t) {
			return strings.TrimRight(string(t[12:12+n]), "\x00")
		}
	case len(t) >= 28 && string(t[:4]) == "mluc":
		size, off := int(binary.BigEndian.Uint32(t[20:24])), int(binary.BigEndian.Uint32(t[24:28]))
		if off+size <= len(t) && size%2 == 0 {
			u := make([]uint16, size/2)
			for i := range u {
				u[i] = binary.BigEndian.Uint16(t[off+2*i:])
			}
			return strings.TrimRight(string(utf16.Decode(u)), "\x00")
		}
	}
	return "unnamed CMYK profile"
}
