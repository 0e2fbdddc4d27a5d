package api

import (
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// polyglotGIF is a valid GIF header followed by an HTML page with script:
// a browser sniffing it would run the script as the API's origin.
const polyglotGIF = "GIF89a\x01\x00\x01\x00\x00\x00\x00;" +
	"<html><body><script>alert(document.domain)</script></body></html>" +
	"\n<!-- padding to make sniffers see HTML -->"

// pdfWithScript is a PDF whose open action runs JavaScript.
const pdfWithScript = "%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> " +
	"endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

func TestFilesDownloadIsInert(t *testing.T) {
	t.Parallel()
	e := newFileEnv(t, testenv.SQLite)
	tests := []struct {
		name, filename, data string
		media, disposition   string
		saveAs               string
	}{
		{"png shows inline", "a.png", string(pngBytes(t)), "image/png", "inline", "a.png"},
		{"pdf downloads", "doc.pdf", pdfWithScript, "application/pdf", "attachment", "doc.pdf"},
		// Saved, the polyglot must not become a page a browser opens as HTML.
		{"gif/html polyglot stays a gif", "page.html", polyglotGIF, "image/gif", "inline", "page.html.gif"},
		{"a jpeg keeps .jpeg", "photo.JPEG", "\xFF\xD8\xFF\xE0rest", "image/jpeg", "inline", "photo.JPEG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := e.upload(e.key, part{"file", tt.filename, tt.data})
			require.Equal(t, http.StatusCreated, up.code, "%s", up.body)
			link := up.obj(t)["url"].(string)
			id := strings.TrimSuffix(path.Base(link), path.Ext(link))
			// The extension in the URL never picks the type: the stored one does.
			for _, ext := range []string{path.Ext(link), ".html", ".svg", ""} {
				dl := e.send(http.MethodGet, "/files/"+id+ext, "")
				require.Equal(t, http.StatusOK, dl.code, "%s: %s", ext, dl.body)
				require.Equal(t, tt.data, string(dl.body))
				require.Equal(t, tt.media, dl.head.Get("Content-Type"), ext)
				require.Equal(t, "nosniff", dl.head.Get("X-Content-Type-Options"))
				csp := dl.head.Get("Content-Security-Policy")
				require.Contains(t, csp, "sandbox")
				require.Contains(t, csp, "default-src 'none'")
				require.True(
					t,
					strings.HasPrefix(dl.head.Get("Content-Disposition"), tt.disposition+";"),
					dl.head.Get("Content-Disposition"),
				)
				_, params, err := mime.ParseMediaType(dl.head.Get("Content-Disposition"))
				require.NoError(t, err)
				require.Equal(t, tt.saveAs, params["filename"], "the upload's own name, with its stored type's extension")
			}
		})
	}
}

func TestFilesBaseURLNamesEveryFileURL(t *testing.T) {
	t.Parallel()
	const files = "https://files.example.test"
	e := newFileEnv(t, testenv.SQLite, func(d *Deps) { d.FilesBaseURL = files })
	up := e.upload(e.key, part{"file", "a.png", string(pngBytes(t))})
	require.Equal(t, http.StatusCreated, up.code, "%s", up.body)
	upload := up.obj(t)
	require.True(t, strings.HasPrefix(upload["url"].(string), files+"/files/"), upload["url"])

	art := e.addOutputs(e.user.ID, "j_files", 1, time.Now().UTC())[0]
	for _, p := range []string{"/v1/files/" + upload["file"].(string), "/v1/files/art:" + art} {
		res := e.send(http.MethodGet, p, "", keyed(e.key)...)
		require.Equal(t, http.StatusOK, res.code, "%s: %s", p, res.body)
		require.True(t, strings.HasPrefix(res.obj(t)["url"].(string), files+"/files/"), "%s: %s", p, res.body)
	}
	for _, kind := range []string{"file", "art"} {
		for _, item := range e.listAll(e.key, "/v1/refs/"+kind)[0] {
			require.True(t, strings.HasPrefix(item["url"].(string), files+"/files/"), "%s: %v", kind, item)
		}
	}
}

// TestDeliveredFilesDownloadWithTheirType stores one output of every type a
// task delivers and checks its URL, download name and Content-Type name
// that type, so a swatch file or a video opens in its program as delivered.
func TestDeliveredFilesDownloadWithTheirType(t *testing.T) {
	t.Parallel()
	e := newFileEnv(t, testenv.SQLite)
	tests := []struct{ task, media, ext, disposition string }{
		{"pattern.generate", "image/png", ".png", "inline"},
		{"photoshoot.create", "image/jpeg", ".jpg", "inline"},
		{"video.pattern_loop", "image/gif", ".gif", "inline"},
		{"video.pattern_loop", "video/mp4", ".mp4", "attachment"},
		{"video.slideshow", "video/mp4", ".mp4", "attachment"},
		{"palette.generate", "image/svg+xml", ".svg", "attachment"},
		{"palette.generate", "application/x-adobe-ase", ".ase", "attachment"},
		{"palette.generate", "application/x-gimp-palette", ".gpl", "attachment"},
		{"print.prepare", "application/pdf", ".pdf", "attachment"},
	}
	ctx := t.Context()
	for i, tt := range tests {
		t.Run(tt.media, func(t *testing.T) {
			data := []byte("bytes of " + tt.media)
			f := models.File{ID: models.NewID(""), UserID: e.user.ID, JobID: "j_types", Index: i, Task: tt.task,
				MediaType: tt.media, BlobKey: fmt.Sprintf("jobs/j_types/%d%s", i, tt.ext), Size: int64(len(data)),
				CreatedAt: time.Now().UTC()}
			require.NoError(t, e.db.Create(&f).Error)
			require.NoError(t, e.bucket.WriteAll(ctx, f.BlobKey, data, nil))

			res := e.send(http.MethodGet, "/v1/files/art:"+f.ID, "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, res.code, "%s", res.body)
			link := res.obj(t)["url"].(string)
			require.Equal(t, tt.ext, path.Ext(link), link)

			dl := e.send(http.MethodGet, "/files/"+path.Base(link), "")
			require.Equal(t, http.StatusOK, dl.code, "%s", dl.body)
			require.Equal(t, string(data), string(dl.body))
			require.Equal(t, tt.media, dl.head.Get("Content-Type"))
			kind, params, err := mime.ParseMediaType(dl.head.Get("Content-Disposition"))
			require.NoError(t, err)
			require.Equal(t, tt.disposition, kind)
			require.Equal(t, f.ID+tt.ext, params["filename"])
		})
	}
}
