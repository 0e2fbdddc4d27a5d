package design

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// embeddedText is the text an image file carries besides its pixels: PNG
// tEXt and uncompressed iTXt chunks, JPEG comments (COM) and XMP packets
// (APP1). Titles, descriptions and keywords live there; the content policy
// reads them. Other files, and files it cannot walk, give "".
func embeddedText(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return pngText(data[8:])
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		return jpegText(data[2:])
	}
	return ""
}

func pngText(b []byte) string {
	var out []string
	for len(b) >= 12 {
		n := binary.BigEndian.Uint32(b)
		if uint64(n)+12 > uint64(len(b)) {
			break
		}
		typ, body := string(b[4:8]), b[8:8+n]
		switch typ {
		case "tEXt":
			out = append(out, string(bytes.ReplaceAll(body, []byte{0}, []byte{' '})))
		case "iTXt":
			// keyword \0 compressed method language \0 translated \0 text
			if k := bytes.IndexByte(body, 0); k >= 0 && k+2 < len(body) && body[k+1] == 0 {
				out = append(out, string(body[:k]))
				rest := body[k+3:]
				for range 2 {
					if j := bytes.IndexByte(rest, 0); j >= 0 {
						out = append(out, string(rest[:j]))
						rest = rest[j+1:]
					}
				}
				out = append(out, string(rest))
			}
		case "IEND":
			return strings.Join(out, " ")
		}
		b = b[12+n:]
	}
	return strings.Join(out, " ")
}

func jpegText(b []byte) string {
	var out []string
	for len(b) >= 4 && b[0] == 0xFF {
		marker := b[1]
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			break
		}
		n := int(binary.BigEndian.Uint16(b[2:]))
		if n < 2 || n+2 > len(b) {
			break
		}
		seg := b[4 : 2+n]
		switch {
		case marker == 0xFE:
			out = append(out, string(seg))
		case marker == 0xE1 && bytes.HasPrefix(seg, []byte("http://ns.adobe.com/xap/1.0/\x00")):
			out = append(out, string(seg[29:]))
		}
		b = b[2+n:]
	}
	return strings.Join(out, " ")
}

// refusedIn lists the refused terms a text names, as whole words.
func refusedIn(text string) []string { return read(text).refused }
