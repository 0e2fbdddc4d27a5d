package palette

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// aseEntry is one block of an ASE file as a reader sees it.
type aseEntry struct {
	kind  string // group, end or colour
	name  string
	model string
	rgb   [3]float32
	typ   uint16
}

// readASE is an independent ASE reader: it walks the header and every
// block, failing on any length that does not add up.
func readASE(t *testing.T, data []byte) []aseEntry {
	t.Helper()
	r := bytes.NewReader(data)
	sig := make([]byte, 4)
	_, err := r.Read(sig)
	require.NoError(t, err)
	require.Equal(t, "ASEF", string(sig))
	var version [2]uint16
	var count uint32
	require.NoError(t, binary.Read(r, binary.BigEndian, &version))
	require.Equal(t, [2]uint16{1, 0}, version)
	require.NoError(t, binary.Read(r, binary.BigEndian, &count))
	var out []aseEntry
	for range count {
		var typ uint16
		var n uint32
		require.NoError(t, binary.Read(r, binary.BigEndian, &typ))
		require.NoError(t, binary.Read(r, binary.BigEndian, &n))
		payload := make([]byte, n)
		_, err := r.Read(payload)
		require.True(t, err == nil || n == 0)
		p := bytes.NewReader(payload)
		e := aseEntry{}
		switch typ {
		case 0xC001:
			e.kind, e.name = "group", readASEName(t, p)
		case 0xC002:
			e.kind = "end"
		case 0x0001:
			e.kind, e.name = "colour", readASEName(t, p)
			m := make([]byte, 4)
			_, _ = p.Read(m)
			e.model = string(m)
			require.NoError(t, binary.Read(p, binary.BigEndian, &e.rgb))
			require.NoError(t, binary.Read(p, binary.BigEndian, &e.typ))
		default:
			t.Fatalf("unknown block type %#x", typ)
		}
		require.Zero(t, p.Len(), "block %q is read to its end", e.name)
		out = append(out, e)
	}
	require.Zero(t, r.Len(), "nothing follows the last block")
	return out
}

func readASEName(t *testing.T, r *bytes.Reader) string {
	var n uint16
	require.NoError(t, binary.Read(r, binary.BigEndian, &n))
	u := make([]uint16, n)
	require.NoError(t, binary.Read(r, binary.BigEndian, u))
	require.Equal(t, uint16(0), u[n-1], "names end in a zero")
	return string(utf16.Decode(u[:n-1]))
}

// TestSwatchFilesRoundTrip asks for every format and reads the ASE and GPL
// files back: the same colours, in the same order, with the names of the
// sheet's data, the base exactly as sent.
func TestSwatchFilesRoundTrip(t *testing.T) {
	d := mustLookup(t, "palette.generate")
	in, err := d.Validate([]byte(
		`{"base_color":"#3a5a40","schemes":["triadic","monochromatic"],"shades":2,"formats":["svg","ase","gpl"]}`))
	require.NoError(t, err)
	require.Equal(t, 6, d.Runner.Plan(in).Steps)
	for i := range 6 {
		o, err := d.Runner.Step(context.Background(), in, i)
		require.NoError(t, err)
		format := []string{"svg", "ase", "gpl"}[i%3]
		require.Equal(t, format, o.Meta["format"])
		require.Equal(t, i, o.Meta["index"])
		require.Equal(t, format, o.Ext)
		var want []string // "name=#RRGGBB" in file order
		for _, c := range o.Meta["colors"].([]any) {
			c := c.(map[string]any)
			want = append(want, fmt.Sprintf("%s %s=%s", c["role"], c["hex"], c["hex"]))
			for j, s := range c["shades"].([]string) {
				want = append(want, fmt.Sprintf("%s step %d %s=%s", c["role"], j+1, s, s))
			}
		}
		require.Contains(t, want, "base #3A5A40=#3A5A40", "the base exactly as sent")
		var got []string
		switch format {
		case "ase":
			require.Equal(t, "application/x-adobe-ase", o.MediaType)
			es := readASE(t, o.Data)
			require.Equal(t, "group", es[0].kind)
			require.Contains(t, es[0].name, "#3A5A40")
			require.Equal(t, "end", es[len(es)-1].kind)
			for _, e := range es[1 : len(es)-1] {
				require.Equal(t, "colour", e.kind)
				require.Equal(t, "RGB ", e.model)
				require.Equal(t, uint16(2), e.typ)
				v := func(f float32) int { return int(math.Round(float64(f) * 255)) }
				got = append(got, fmt.Sprintf("%s=#%02X%02X%02X", e.name, v(e.rgb[0]), v(e.rgb[1]), v(e.rgb[2])))
			}
		case "gpl":
			require.Equal(t, "application/x-gimp-palette", o.MediaType)
			sc := bufio.NewScanner(bytes.NewReader(o.Data))
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			require.Equal(t, "GIMP Palette", lines[0])
			require.True(t, strings.HasPrefix(lines[1], "Name: "))
			require.True(t, strings.HasPrefix(lines[2], "Columns: "))
			for _, l := range lines[3:] {
				if strings.HasPrefix(l, "#") {
					continue
				}
				var r, g, b int
				rgb, name, ok := strings.Cut(l, "\t")
				require.True(t, ok, l)
				_, err := fmt.Sscanf(rgb, "%d %d %d", &r, &g, &b)
				require.NoError(t, err, l)
				got = append(got, fmt.Sprintf("%s=#%02X%02X%02X", name, r, g, b))
			}
		default:
			require.Equal(t, "image/svg+xml", o.MediaType)
			continue
		}
		require.Equal(t, want, got, "output %d (%s)", i, format)
	}
}
