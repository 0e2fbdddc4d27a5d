package palette

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/taskplatform/taskplatform/tasks"
)

// fileFormat is one value of the formats option: how a sheet is delivered.
type fileFormat struct {
	value, mediaType, ext, text string
}

// fileFormats are the files palette.generate delivers for a sheet.
var fileFormats = []fileFormat{
	{"svg", "image/svg+xml", "svg", "the labelled swatch sheet, to look at and print."},
	{"ase", "application/x-adobe-ase", "ase",
		"an Adobe Swatch Exchange file (ASE 1.0, RGB, one group per sheet) for the Swatches panel of Illustrator, " +
			"Photoshop and InDesign."},
	{"gpl", "application/x-gimp-palette", "gpl",
		"a GIMP palette (GPL text) that GIMP, Inkscape and Krita load as a palette."},
}

func formatByValue(v string) fileFormat {
	for _, f := range fileFormats {
		if f.value == v {
			return f
		}
	}
	return fileFormats[0]
}

// formatOptions are the formats option's values.
func formatOptions() []tasks.VocabValue {
	out := make([]tasks.VocabValue, len(fileFormats))
	for i, f := range fileFormats {
		out[i] = tasks.VocabValue{Value: f.value, Description: f.text}
	}
	return out
}

// namedSwatch is one colour of a swatch file: its name and #RRGGBB.
type namedSwatch struct{ name, hex string }

// fileSwatches are the colours of a sheet as a swatch file lists them: each
// colour named by its role and hex, then its shade steps.
func fileSwatches(sw []swatch, shades [][]string) []namedSwatch {
	var out []namedSwatch
	for i, s := range sw {
		out = append(out, namedSwatch{s.role + " " + s.hex, s.hex})
		if i < len(shades) {
			for j, h := range shades[i] {
				out = append(out, namedSwatch{fmt.Sprintf("%s step %d %s", s.role, j+1, h), h})
			}
		}
	}
	return out
}

// ASE block types.
const (
	aseGroupStart = 0xC001
	aseGroupEnd   = 0xC002
	aseColour     = 0x0001
	aseNormal     = 2 // colour type: normal (neither global nor spot)
)

// encodeASE writes an Adobe Swatch Exchange file, version 1.0: the
// signature ASEF, the version, the block count, then a group named title
// holding one RGB colour block per swatch. Everything is big-endian;
// names are UTF-16 with a terminating zero.
func encodeASE(title string, sw []namedSwatch) []byte {
	var body bytes.Buffer
	block := func(typ uint16, payload []byte) {
		_ = binary.Write(&body, binary.BigEndian, typ)
		_ = binary.Write(&body, binary.BigEndian, uint32(len(payload)))
		body.Write(payload)
	}
	block(aseGroupStart, aseName(title))
	for _, s := range sw {
		var p bytes.Buffer
		p.Write(aseName(s.name))
		p.WriteString("RGB ")
		c := tasks.ParseColour(s.hex)
		for _, v := range []uint8{c.R, c.G, c.B} {
			_ = binary.Write(&p, binary.BigEndian, float32(v)/255)
		}
		_ = binary.Write(&p, binary.BigEndian, uint16(aseNormal))
		block(aseColour, p.Bytes())
	}
	block(aseGroupEnd, nil)
	var out bytes.Buffer
	out.WriteString("ASEF")
	_ = binary.Write(&out, binary.BigEndian, [2]uint16{1, 0})
	_ = binary.Write(&out, binary.BigEndian, uint32(len(sw)+2))
	out.Write(body.Bytes())
	return out.Bytes()
}

// aseName is a name as ASE stores it: its length in UTF-16 units with the
// terminating zero, then the units.
func aseName(s string) []byte {
	u := append(utf16.Encode([]rune(s)), 0)
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint16(len(u)))
	_ = binary.Write(&b, binary.BigEndian, u)
	return b.Bytes()
}

// encodeGPL writes a GIMP palette: the header, the palette's name, a
// column count, then one "R G B<tab>name" line per swatch.
func encodeGPL(title string, columns int, sw []namedSwatch) []byte {
	var b strings.Builder
	b.WriteString("GIMP Palette\n")
	fmt.Fprintf(&b, "Name: %s\n", strings.ReplaceAll(title, "\n", " "))
	fmt.Fprintf(&b, "Columns: %d\n#\n", max(1, columns))
	for _, s := range sw {
		c := tasks.ParseColour(s.hex)
		fmt.Fprintf(&b, "%3d %3d %3d\t%s\n", c.R, c.G, c.B, s.name)
	}
	return []byte(b.String())
}
