package production

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/pagecheck"
)

// sheetTasks are the records and production tasks whose outputs are
// sheets a person reads, with the margin each PNG sheet keeps clear, the
// page each PDF is on, and the output and page the README shows.
var sheetTasks = []struct {
	task           string
	margin         int
	page           pagecheck.Sheet
	docOut, docPag int
}{
	{"range_plan.create", 40, pagecheck.Sheet{W: 842, H: 595, MinInk: 0.4}, 1, 1},
	{"techpack.create", 0, pagecheck.Sheet{W: 842, H: 595}, 0, 2},
	{"fabric.create", 40, pagecheck.Sheet{}, 0, 0},
	{"brand_kit.create", 40, pagecheck.Sheet{W: 595, H: 842, MinInk: 0.4}, 1, 1},
	{"moodboard.create", 16, pagecheck.Sheet{}, 0, 0},
}

// TestEverySheetIsAPage opens every PDF page and PNG or JPEG sheet the
// examples of these tasks make: a PDF's pages through poppler (the size
// the docs state, text on each, no words overlapping), a picture's margins
// by its pixels (nothing drawn off the page).
func TestEverySheetIsAPage(t *testing.T) {
	for _, st := range sheetTasks {
		t.Run(st.task, func(t *testing.T) {
			d := lookup(t, st.task)
			for ex := range d.Examples {
				outs, err := d.ExampleOutputs(context.Background(), ex)
				require.NoError(t, err)
				for _, o := range outs {
					switch o.MediaType {
					case "application/pdf":
						pagecheck.Check(t, o.Data, st.page)
					case "image/png", "image/jpeg":
						pagecheck.Margins(t, o.Data, st.margin)
					default:
						t.Fatalf("%s makes %s", st.task, o.MediaType)
					}
				}
			}
		})
	}
}

// docsDir is where the README's pictures of the sheets live.
const docsDir = "../../docs/sheets"

// TestREADMEShowsEverySheet checks the README's picture of each task's
// sheet is there and small (under 150 KB). TP_WRITE_DOCS=1 draws them
// again from the tasks' examples (PDF pages through pdftoppm):
//
//	TP_WRITE_DOCS=1 go test ./tasks/production/ -run READMEShows
func TestREADMEShowsEverySheet(t *testing.T) {
	for _, st := range sheetTasks {
		name := filepath.Join(docsDir, st.task[:len(st.task)-len(".create")]+".png")
		if os.Getenv("TP_WRITE_DOCS") != "" {
			require.NoError(t, os.MkdirAll(docsDir, 0o755))
			require.NoError(t, os.WriteFile(name, docPicture(t, st.task, st.docOut, st.docPag), 0o644))
		}
		info, err := os.Stat(name)
		require.NoError(t, err, "%s: run TP_WRITE_DOCS=1 go test ./tasks/production/ -run READMEShows", name)
		require.Less(t, info.Size(), int64(150<<10), name)
		readme, err := os.ReadFile("../../README.md")
		require.NoError(t, err)
		require.Contains(t, string(readme), "docs/sheets/"+filepath.Base(name))
	}
}

// docPicture is the README's picture of a task's example: output out,
// page page of a PDF, 640 px wide.
func docPicture(t *testing.T, task string, out, page int) []byte {
	outs, err := lookup(t, task).ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	o := outs[out]
	var img image.Image
	if o.MediaType == "application/pdf" {
		dir := t.TempDir()
		pdf := filepath.Join(dir, "doc.pdf")
		require.NoError(t, os.WriteFile(pdf, o.Data, 0o600))
		p := string(rune('0' + page))
		require.NoError(t, exec.Command("pdftoppm", "-png", "-r", "80", "-f", p, "-l", p, "-singlefile", pdf,
			filepath.Join(dir, "page")).Run())
		img, err = imaging.Open(filepath.Join(dir, "page.png"))
		require.NoError(t, err)
	} else {
		img, _, err = image.Decode(bytes.NewReader(o.Data))
		require.NoError(t, err)
	}
	w := 640
	if img.Bounds().Dy() > img.Bounds().Dx() {
		w = 440 // a portrait sheet
	}
	small := imaging.Resize(img, w, 0, imaging.Lanczos)
	// 32 levels a channel: the cloth's fine grain compresses, the page
	// reads the same.
	for i := range small.Pix {
		if i%4 != 3 {
			small.Pix[i] = small.Pix[i]&0xF8 | 0x04
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	require.NoError(t, enc.Encode(&buf, small))
	return buf.Bytes()
}
