package icc

import (
	"encoding/binary"
	"math"
)

// v4Profile builds an ICC v4 CMYK output profile on L*a*b* whose B2A1 is a
// lutBToA: gamma-1 B curves, a 9-point colour table of smooth inks and
// A curves of gamma 1.8. Little CMS's transicc reads it as the ground
// truth of the lutBToA reader.
func v4Profile() []byte {
	be := binary.BigEndian
	u32 := func(v uint32) []byte { b := make([]byte, 4); be.PutUint32(b, v); return b }
	u16 := func(v uint16) []byte { b := make([]byte, 2); be.PutUint16(b, v); return b }
	s15f := func(v float64) []byte { return u32(uint32(int32(math.Round(v * 65536)))) }
	pad := func(b []byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	// The lutBToA.
	var bCurves []byte
	for range 3 {
		bCurves = append(bCurves, []byte("curv\x00\x00\x00\x00")...)
		bCurves = append(bCurves, u32(1)...)
		bCurves = pad(append(bCurves, u16(0x0100)...))
	}
	const g = 9
	clut := []byte{g, g, g}
	clut = append(clut, make([]byte, 13)...)
	clut = append(clut, 2, 0, 0, 0)
	for i := range g {
		for j := range g {
			for k := range g {
				l, a, b := float64(i)/(g-1), float64(j)/(g-1), float64(k)/(g-1)
				inks := []float64{
					(1 - l) * (1 - a) * 0.9, (1 - l) * a, (1 - l) * (0.3 + 0.7*b*b), math.Pow(1-l, 3),
				}
				for _, v := range inks {
					clut = append(clut, u16(uint16(math.Round(math.Min(1, v)*65535)))...)
				}
			}
		}
	}
	clut = pad(clut)
	var aCurves []byte
	for range 4 {
		aCurves = append(aCurves, []byte("para\x00\x00\x00\x00")...)
		aCurves = append(aCurves, u16(0)...)
		aCurves = append(aCurves, u16(0)...)
		aCurves = append(aCurves, s15f(1.8)...)
	}
	mba := append([]byte("mBA \x00\x00\x00\x00"), 3, 4, 0, 0)
	head := 32
	mba = append(mba, u32(uint32(head))...)                        // B curves
	mba = append(mba, u32(0)...)                                   // no matrix
	mba = append(mba, u32(0)...)                                   // no M curves
	mba = append(mba, u32(uint32(head+len(bCurves)))...)           // CLUT
	mba = append(mba, u32(uint32(head+len(bCurves)+len(clut)))...) // A curves
	mba = append(append(append(mba, bCurves...), clut...), aCurves...)
	// desc, wtpt and the table.
	name := "Test lutBToA"
	desc := append([]byte("mluc\x00\x00\x00\x00"), u32(1)...)
	desc = append(desc, u32(12)...)
	desc = append(desc, []byte("enUS")...)
	desc = append(desc, u32(uint32(2*len(name)))...)
	desc = append(desc, u32(28)...)
	for _, r := range name {
		desc = append(desc, u16(uint16(r))...)
	}
	desc = pad(desc)
	wtpt := append([]byte("XYZ \x00\x00\x00\x00"), s15f(0.9642)...)
	wtpt = append(append(wtpt, s15f(1)...), s15f(0.8249)...)
	tags := []struct {
		sig  string
		data []byte
	}{{"desc", desc}, {"wtpt", wtpt}, {"B2A1", mba}}
	off := 128 + 4 + 12*len(tags)
	table := u32(uint32(len(tags)))
	var body []byte
	for _, t := range tags {
		table = append(table, []byte(t.sig)...)
		table = append(table, u32(uint32(off+len(body)))...)
		table = append(table, u32(uint32(len(t.data)))...)
		body = pad(append(body, t.data...))
	}
	header := make([]byte, 128)
	copy(header[8:], u32(0x04200000))
	copy(header[12:], "prtrCMYKLab ")
	copy(header[36:], "acsp")
	copy(header[68:], s15f(0.9642))
	copy(header[72:], s15f(1))
	copy(header[76:], s15f(0.8249))
	out := append(append(header, table...), body...)
	copy(out[0:], u32(uint32(len(out))))
	return out
}
