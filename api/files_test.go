package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// fileEnv is the API with a memory blob store and a clock that moves one
// second per reading, so files made in a row have distinct times.
type fileEnv struct {
	*env
	bucket *blob.Bucket
}

func newFileEnv(t *testing.T, b testenv.Backend, tweak ...func(*Deps)) *fileEnv {
	t.Helper()
	bucket := memblob.OpenBucket(nil)
	t.Cleanup(func() { _ = bucket.Close() })
	var mu sync.Mutex
	at := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Second)
		return at
	}
	all := append([]func(*Deps){func(d *Deps) { d.Blob, d.Now = bucket, clock }}, tweak...)
	return &fileEnv{env: newEnv(t, b, all...), bucket: bucket}
}

// part is one multipart part: a file part when filename is set.
type part struct{ name, filename, value string }

// multipartBody writes parts as multipart/form-data.
func multipartBody(t *testing.T, parts ...part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		var pw io.Writer
		var err error
		if p.filename != "" {
			pw, err = w.CreateFormFile(p.name, p.filename)
		} else {
			pw, err = w.CreateFormField(p.name)
		}
		require.NoError(t, err)
		_, err = io.WriteString(pw, p.value)
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return &buf, w.FormDataContentType()
}

// upload posts parts to /v1/files with secret.
func (e *fileEnv) upload(secret string, parts ...part) answer {
	body, ct := multipartBody(e.t, parts...)
	return serve(e.r, request(http.MethodPost, "/v1/files", body, with(keyed(secret), "Content-Type", ct)...))
}

// register posts a JSON body to /v1/files with secret.
func (e *fileEnv) register(secret, body string) answer {
	return e.send(http.MethodPost, "/v1/files", body, with(keyed(secret), "Content-Type", "application/json")...)
}

// uploads lists the stored upload blobs.
func (e *fileEnv) uploads() []string {
	var keys []string
	it := e.bucket.List(&blob.ListOptions{Prefix: "uploads/"})
	for {
		o, err := it.Next(context.Background())
		if err == io.EOF {
			return keys
		}
		require.NoError(e.t, err)
		keys = append(keys, o.Key)
	}
}

func (e *fileEnv) fileRows() int64 {
	var n int64
	require.NoError(e.t, e.db.Model(&models.File{}).Count(&n).Error)
	return n
}

// pngBytes is a real 8×8 PNG.
func pngBytes(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for i := range 8 {
		img.Set(i, i, color.NRGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// bmpBytes is a 1×1 bitmap with a BITMAPINFOHEADER.
func bmpBytes() []byte {
	b := make([]byte, 58)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[2:], 58)
	binary.LittleEndian.PutUint32(b[10:], 54)
	binary.LittleEndian.PutUint32(b[14:], 40)
	binary.LittleEndian.PutUint32(b[18:], 1)
	binary.LittleEndian.PutUint32(b[22:], 1)
	binary.LittleEndian.PutUint16(b[26:], 1)
	binary.LittleEndian.PutUint16(b[28:], 24)
	return b
}

func TestFilesUploadStoresBytesAndAnswersARecord(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			img := pngBytes(t)
			res := e.upload(e.key, part{"external_id", "", "SKU-42"}, part{"file", "shoe.png", string(img)})
			require.Equal(t, http.StatusCreated, res.code, "%s", res.body)
			rec := res.obj(t)
			handle := rec["file"].(string)
			require.True(t, strings.HasPrefix(handle, "file:"), handle)
			require.Equal(t, "image/png", rec["media_type"])
			require.EqualValues(t, len(img), rec["size"])
			require.Equal(t, "SKU-42", rec["external_id"])
			require.Equal(t, "shoe.png", rec["name"], "the upload keeps its file name")
			require.Equal(t, false, rec["deletable"])
			require.NotEmpty(t, rec["created_at"])
			require.Equal(t, []string{"uploads/" + strings.TrimPrefix(handle, "file:")}, e.uploads())

			link := rec["url"].(string)
			require.True(t, strings.HasPrefix(link, "https://api.example.test/files/"), link)
			dl := e.send(http.MethodGet, strings.TrimPrefix(link, "https://api.example.test"), "")
			require.Equal(t, http.StatusOK, dl.code)
			require.Equal(t, img, dl.body, "the download is the bytes uploaded")
			require.Equal(t, "image/png", dl.head.Get("Content-Type"))
			require.Equal(t, `inline; filename=shoe.png`, dl.head.Get("Content-Disposition"))

			read := e.send(http.MethodGet, "/v1/files/"+handle, "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, read.code, "%s", read.body)
			require.Equal(t, rec, read.obj(t))
			asArt := e.send(http.MethodGet, "/v1/files/art:"+strings.TrimPrefix(handle, "file:"), "", keyed(e.key)...)
			require.Equal(t, http.StatusNotFound, asArt.code, "an upload is no art: handle")
			require.Equal(t, "file_not_found", asArt.errCode(t))

			again := e.upload(e.key, part{"file", "shoe.png", string(img)}, part{"external_id", "", "SKU-42"})
			require.Equal(t, http.StatusCreated, again.code, "%s", again.body)
			require.NotEqual(t, handle, again.obj(t)["file"], "the same bytes again make a new file")
			require.Len(t, e.uploads(), 2)

			plain := e.upload(e.key, part{"file", "", string(bmpBytes())})
			require.Equal(t, http.StatusCreated, plain.code, "%s", plain.body)
			require.Equal(t, "image/bmp", plain.obj(t)["media_type"])
			require.Nil(t, plain.obj(t)["external_id"])
			require.Nil(t, plain.obj(t)["name"], "a part without a file name keeps none")
		})
	}
}

func TestFilesUploadDetectsTheMediaType(t *testing.T) {
	t.Parallel()
	webp := "RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00" + strings.Repeat("\x00", 24)
	for _, tc := range []struct {
		name, data, want string
		known            bool
	}{
		{"png", string(pngBytes(t)), "image/png", true},
		{"jpeg", "\xFF\xD8\xFF\xE0\x00\x10JFIF\x00", "image/jpeg", true},
		{"gif", "GIF89a\x01\x00\x01\x00", "image/gif", true},
		{"webp", webp, "image/webp", true},
		{"bmp", string(bmpBytes()), "image/bmp", true},
		{"pdf", "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", "application/pdf", true},
		{"text", "hello, world", "text/plain", false},
		{"text starting BM", "BMW parts list, 2026 edition", "application/octet-stream", false},
		{"riff that is not webp", "RIFF\x24\x00\x00\x00WAVEfmt " + strings.Repeat("\x00", 8), "audio/wave", false},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg"></svg>`, "text/plain", false},
		{"zip", "PK\x03\x04" + strings.Repeat("\x00", 30), "application/zip", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, known := detectMediaType([]byte(tc.data))
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.known, known)
		})
	}
}

func TestFilesUploadRefusals(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 101)
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			img := string(pngBytes(t))
			for _, tc := range []struct {
				name   string
				parts  []part
				status int
				code   string
				field  any
			}{
				{"text", []part{{"file", "notes.txt", "just some words\n"}}, 415, "unsupported_media_type", nil},
				{"svg", []part{{"file", "logo.svg", `<svg xmlns="http://www.w3.org/2000/svg"/>`}}, 415, "unsupported_media_type",
					nil},
				{"empty file", []part{{"file", "empty.png", ""}}, 422, "invalid_request", "file"},
				{"no file part", []part{{"external_id", "", "x"}}, 422, "invalid_request", "file"},
				{"two files", []part{{"file", "a.png", img}, {"file", "b.png", img}}, 422, "invalid_request", "file"},
				{"unknown part", []part{{"file", "a.png", img}, {"caption", "", "hi"}}, 422, "field_not_accepted", "caption"},
				{"external_id too long", []part{{"file", "a.png", img}, {"external_id", "", long}}, 422, "invalid_request",
					"external_id"},
				{"external_id with a newline", []part{{"external_id", "", "a\nb"}, {"file", "a.png", img}}, 422, "invalid_request",
					"external_id"},
			} {
				res := e.upload(e.key, tc.parts...)
				require.Equal(t, tc.status, res.code, "%s: %s", tc.name, res.body)
				require.Equal(t, tc.code, res.errCode(t), tc.name)
				require.Equal(t, tc.field, res.errObj(t)["field"], tc.name)
			}
			require.Empty(t, e.uploads(), "a refused upload leaves no bytes")
			require.Zero(t, e.fileRows(), "and no row")

			for _, tc := range []struct {
				name, ct, body string
				status         int
				code           string
			}{
				{"plain text body", "text/plain", "hello", 415, "unsupported_media_type"},
				{"no boundary", "multipart/form-data", "--x\r\n", 400, "malformed_request"},
				{"broken multipart", "multipart/form-data; boundary=zz", "--zz\r\nContent-Disposition: form-data; " +
					"name=\"file\"\r\n\r\n\x89PNG", 400, "malformed_request"},
			} {
				res := e.send(http.MethodPost, "/v1/files", tc.body, with(keyed(e.key), "Content-Type", tc.ct)...)
				require.Equal(t, tc.status, res.code, "%s: %s", tc.name, res.body)
				require.Equal(t, tc.code, res.errCode(t), tc.name)
			}

			readOnly, _ := e.newKey(e.user.ID, []string{models.ScopeFilesRead}, nil)
			res := e.upload(readOnly, part{"file", "a.png", img})
			require.Equal(t, http.StatusForbidden, res.code)
			require.Equal(t, "scope_missing", res.errCode(t))
		})
	}
}

// endless yields n bytes of a PNG-looking stream without a known length.
type endless struct{ left int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	clear(p[:n])
	r.left -= n
	return int(n), nil
}

func TestFilesUploadOverTheLimit(t *testing.T) {
	t.Parallel()
	maxBytes := contract.DefaultLimits().Upload.MaxBytes
	e := newFileEnv(t, testenv.SQLite)
	img := pngBytes(t)
	over := append(append([]byte(nil), img...), make([]byte, maxBytes+1-int64(len(img)))...)
	atLimit := over[:maxBytes]

	res := e.upload(e.key, part{"file", "big.png", string(over)})
	require.Equal(t, http.StatusRequestEntityTooLarge, res.code, "one byte over, within the transport cap")
	require.Equal(t, "file_too_large", res.errCode(t))
	require.Empty(t, e.uploads(), "an aborted write stores nothing")

	// Declared too long: the transport refuses before reading.
	body, ct := multipartBody(t, part{"file", "big.png", string(append(over, make([]byte, 128<<10)...))})
	res = serve(e.r, request(http.MethodPost, "/v1/files", body, with(keyed(e.key), "Content-Type", ct)...))
	require.Equal(t, http.StatusRequestEntityTooLarge, res.code)
	require.Equal(t, "file_too_large", res.errCode(t))

	// Unknown length (chunked), over the transport cap: cut while reading.
	head, ct := multipartBody(t, part{"file", "big.png", string(img)})
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	cut := bytes.Index(head.Bytes(), []byte("\r\n--"+boundary+"--"))
	stream := io.MultiReader(
		bytes.NewReader(head.Bytes()[:cut]),
		&endless{left: maxBytes + 256<<10},
		strings.NewReader("\r\n--"+boundary+"--\r\n"),
	)
	req := request(http.MethodPost, "/v1/files", stream, with(keyed(e.key), "Content-Type", ct)...)
	require.EqualValues(t, -1, req.ContentLength)
	res = serve(e.r, req)
	require.Equal(t, http.StatusRequestEntityTooLarge, res.code, "%s", res.body)
	require.Equal(t, "file_too_large", res.errCode(t))
	require.Empty(t, e.uploads())
	require.Zero(t, e.fileRows())

	res = e.upload(e.key, part{"file", "big.png", string(atLimit)})
	require.Equal(t, http.StatusCreated, res.code, "exactly max_bytes is accepted: %s", res.body)
	require.EqualValues(t, maxBytes, res.obj(t)["size"])
}

func TestUploadNameKeepsOnlyTheFileName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 200) + ".png" // 404 bytes
	for raw, want := range map[string]string{
		"shoe.png":                "shoe.png",
		`C:\Users\ana\shoe 2.png`: "shoe 2.png",
		"../../etc/passwd":        "passwd",
		"  spaced.png  ":          "spaced.png",
		"tab\tand\nnewline.png":   "tabandnewline.png",
		"invoice\u202egnp.exe":    "invoicegnp.exe",
		"bad\xffutf8.png":         "badutf8.png",
		"..":                      "",
		"dir/":                    "",
		"":                        "",
		"sku/été.jpg":             "été.jpg",
		long:                      strings.Repeat("é", 127),
	} {
		got := uploadName(raw)
		require.Equal(t, want, got, "%q", raw)
		require.LessOrEqual(t, len(got), maxFileName)
		require.True(t, utf8.ValidString(got))
	}
}
