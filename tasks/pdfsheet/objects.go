package pdfsheet

import (
	"bytes"
	"fmt"
)

// WriteObjects writes objs as the numbered objects 1…n of a PDF whose
// header out already holds, then their cross-reference table, and returns
// the table's offset for the trailer's startxref. The one writer of the
// PDFs we assemble by hand: print files, flat sketches and pattern vectors.
func WriteObjects(out *bytes.Buffer, objs []string) (xref int) {
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = out.Len()
		fmt.Fprintf(out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref = out.Len()
	fmt.Fprintf(out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(out, "%010d 00000 n \n", off)
	}
	return xref
}
