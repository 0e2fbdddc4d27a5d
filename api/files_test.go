package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/taskplatform/taskplatform/api/paging"
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

func TestFilesRegisterURL(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			const src = "https://1.1.1.1/catalogue/shoe.png"
			first := e.register(e.key, `{"url":"`+src+`","external_id":"SKU-7"}`)
			require.Equal(t, http.StatusCreated, first.code, "%s", first.body)
			rec := first.obj(t)
			require.True(t, strings.HasPrefix(rec["file"].(string), "file:"))
			require.Equal(t, src, rec["url"], "a registered file's url is its source")
			require.Equal(t, "SKU-7", rec["external_id"])
			require.Nil(t, rec["media_type"], "not fetched yet")
			require.Nil(t, rec["size"])
			require.Equal(t, false, rec["deletable"])

			again := e.register(e.key, `{"url":"`+src+`"}`)
			require.Equal(
				t,
				http.StatusCreated,
				again.code,
				"re-registering answers 201 like the first time: %s",
				again.body,
			)
			require.Equal(t, rec, again.obj(t), "the same URL answers the same file")
			withKey := e.send(
				http.MethodPost,
				"/v1/files",
				`{"url":"`+src+`"}`,
				with(keyed(e.key), "Content-Type", "application/json", "Idempotency-Key", "k1")...)
			require.Equal(t, http.StatusCreated, withKey.code, "Idempotency-Key is ignored")
			require.Equal(t, rec["file"], withKey.obj(t)["file"])

			read := e.send(http.MethodGet, "/v1/files/"+rec["file"].(string), "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, read.code)
			require.Equal(t, rec, read.obj(t))
			noBytes := e.send(http.MethodGet, "/files/"+strings.TrimPrefix(rec["file"].(string), "file:")+".bin", "")
			require.Equal(t, http.StatusNotFound, noBytes.code, "no bytes are kept for a registered URL")

			_, otherKey, _ := e.account(models.PlanStandard)
			theirs := e.register(otherKey, `{"url":"`+src+`"}`)
			require.Equal(t, http.StatusCreated, theirs.code, "another account registers its own")
			require.NotEqual(t, rec["file"], theirs.obj(t)["file"])
			require.Equal(
				t,
				http.StatusNotFound,
				e.send(http.MethodGet, "/v1/files/"+theirs.obj(t)["file"].(string), "", keyed(e.key)...).code,
			)
		})
	}
}

func TestFilesRegisterURLRefusals(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			for _, tc := range []struct {
				name, body string
				status     int
				code       string
				field      any
			}{
				{"http", `{"url":"http://1.1.1.1/x.png"}`, 422, "invalid_request", "url"},
				{"loopback", `{"url":"https://127.0.0.1/x"}`, 422, "image_not_public", "url"},
				{"localhost", `{"url":"https://localhost/x"}`, 422, "image_not_public", "url"},
				{"private", `{"url":"https://10.1.2.3/x"}`, 422, "image_not_public", "url"},
				{"link-local", `{"url":"https://[fe80::1]/x"}`, 422, "image_not_public", "url"},
				{"metadata", `{"url":"https://169.254.169.254/latest/meta-data"}`, 422, "image_not_public", "url"},
				{"not a URL", `{"url":"shoe.png"}`, 422, "invalid_request", "url"},
				{"no host", `{"url":"https:///x.png"}`, 422, "invalid_request", "url"},
				{"missing url", `{"external_id":"x"}`, 422, "invalid_request", "url"},
				{"null url", `{"url":null}`, 422, "invalid_request", "url"},
				{"url not a string", `{"url":7}`, 422, "invalid_request", "url"},
				{"url too long", `{"url":"https://1.1.1.1/` + strings.Repeat("a", 2048) + `"}`, 422, "invalid_request", "url"},
				{"external_id too long", `{"url":"https://1.1.1.1/x","external_id":"` + strings.Repeat("x", 101) + `"}`, 422,
					"invalid_request", "external_id"},
				{"external_id not a string", `{"url":"https://1.1.1.1/x","external_id":5}`, 422, "invalid_request", "external_id"},
				{"unknown field", `{"url":"https://1.1.1.1/x","name":"shoe"}`, 422, "field_not_accepted", "name"},
				{"not an object", `["https://1.1.1.1/x"]`, 400, "malformed_request", nil},
				{"not JSON", `{"url":`, 400, "malformed_request", nil},
			} {
				res := e.register(e.key, tc.body)
				require.Equal(t, tc.status, res.code, "%s: %s", tc.name, res.body)
				require.Equal(t, tc.code, res.errCode(t), tc.name)
				require.Equal(t, tc.field, res.errObj(t)["field"], tc.name)
			}
			require.Zero(t, e.fileRows())

			dev := newFileEnv(t, b, func(d *Deps) { d.AllowPrivateURLs = true })
			res := dev.register(dev.key, `{"url":"https://127.0.0.1/x"}`)
			require.Equal(t, http.StatusCreated, res.code, "AllowPrivateURLs lets dev register loopback: %s", res.body)
			res = dev.register(dev.key, `{"url":"http://127.0.0.1/x"}`)
			require.Equal(t, "invalid_request", res.errCode(t), "but still https only")
		})
	}
}

// addOutputs inserts files a job of userID delivered, oldest first.
func (e *fileEnv) addOutputs(userID uint64, jobID string, n int, at time.Time) []string {
	e.t.Helper()
	var ids []string
	for i := range n {
		f := models.File{
			ID:        models.NewID(""),
			UserID:    userID,
			JobID:     jobID,
			Index:     i,
			Task:      "pattern.generate",
			MediaType: "image/png",
			BlobKey: fmt.Sprintf(
				"jobs/%s/%d.png",
				jobID,
				i,
			),
			Size:      10,
			CreatedAt: at.Add(time.Duration(i) * time.Second),
		}
		require.NoError(e.t, e.db.Create(&f).Error)
		ids = append(ids, f.ID)
	}
	return ids
}

// listAll follows a refs listing to its end and returns its pages.
func (e *fileEnv) listAll(secret, path string) [][]map[string]any {
	e.t.Helper()
	var pages [][]map[string]any
	next := path
	for range 10 {
		res := e.send(http.MethodGet, next, "", keyed(secret)...)
		require.Equal(e.t, http.StatusOK, res.code, "%s", res.body)
		body := res.obj(e.t)
		var items []map[string]any
		for _, it := range body["items"].([]any) {
			items = append(items, it.(map[string]any))
		}
		pages = append(pages, items)
		cur, ok := body["next_cursor"]
		require.Equal(e.t, body["has_more"], ok, "next_cursor is there exactly while has_more")
		if !ok {
			return pages
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		next = path + sep + "cursor=" + url.QueryEscape(cur.(string))
	}
	e.t.Fatal("the listing does not end")
	return nil
}

func handles(pages [][]map[string]any) []string {
	var out []string
	for _, p := range pages {
		for _, it := range p {
			out = append(out, it["file"].(string))
		}
	}
	return out
}

func TestRefsListsFilesNewestFirstInPages(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			img := string(pngBytes(t))
			var made []string
			for i := range 4 {
				res := e.upload(
					e.key,
					part{"file", []string{"a.png", "a.png", "a.png", "Red Shoe.png"}[i], img},
					part{"external_id", "", []string{"SKU-1", "sku-2", "other", ""}[i]},
				)
				require.Equal(t, http.StatusCreated, res.code, "%s", res.body)
				made = append(made, res.obj(t)["file"].(string))
			}
			reg := e.register(e.key, `{"url":"https://1.1.1.1/Summer/Dress.PNG"}`)
			require.Equal(t, http.StatusCreated, reg.code)
			made = append(made, reg.obj(t)["file"].(string))
			_, otherKey, _ := e.account(models.PlanStandard)
			require.Equal(t, http.StatusCreated, e.upload(otherKey, part{"file", "a.png", img}).code)

			pages := e.listAll(e.key, "/v1/refs/file?limit=2")
			require.Len(t, pages, 3)
			require.Equal(t, []int{2, 2, 1}, []int{len(pages[0]), len(pages[1]), len(pages[2])})
			require.Equal(
				t,
				[]string{made[4], made[3], made[2], made[1], made[0]},
				handles(pages),
				"newest first, only the caller's",
			)
			first := pages[2][0]
			require.Equal(
				t,
				map[string]any{"file": made[0], "url": first["url"], "name": "a.png", "external_id": "SKU-1",
					"gender": nil, "base": nil, "kind": nil, "deletable": false},
				first,
			)
			require.True(t, strings.HasPrefix(first["url"].(string), "https://api.example.test/files/"))
			require.Equal(t, "https://1.1.1.1/Summer/Dress.PNG", pages[0][0]["url"])

			require.Len(t, handles(e.listAll(e.key, "/v1/refs/file")), 5, "default limit 20")
			require.Equal(
				t,
				[]string{made[1], made[0]},
				handles(e.listAll(e.key, "/v1/refs/file?q=SKU")),
				"q matches external_id, any case",
			)
			require.Equal(
				t,
				[]string{made[4]},
				handles(e.listAll(e.key, "/v1/refs/file?q=dress.png")),
				"q matches the source URL",
			)
			require.Equal(
				t,
				[]string{made[3]},
				handles(e.listAll(e.key, "/v1/refs/file?q=red%20SHOE")),
				"q matches the upload's file name",
			)
			require.Empty(t, handles(e.listAll(e.key, "/v1/refs/file?q=%25")), "q is literal text")
			require.Empty(t, handles(e.listAll(e.key, "/v1/refs/art")), "uploads are not art")
		})
	}
}

func TestRefsArtListsJobOutputs(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
			ids := e.addOutputs(e.user.ID, "j_one", 3, at)
			other, _, _ := e.account(models.PlanStandard)
			e.addOutputs(other.ID, "j_two", 2, at)
			require.Equal(t, http.StatusCreated, e.upload(e.key, part{"file", "a.png", string(pngBytes(t))}).code)

			pages := e.listAll(e.key, "/v1/refs/art?limit=2")
			require.Equal(t, []string{"art:" + ids[2], "art:" + ids[1], "art:" + ids[0]}, handles(pages))
			it := pages[0][0]
			require.Equal(t, "art", it["name"], "the name falls back to the kind")
			require.Equal(t, true, it["deletable"])
			require.Nil(t, it["external_id"])
			require.Equal(t, "https://api.example.test/files/"+ids[2]+".png", it["url"])

			del := e.send(http.MethodDelete, "/v1/files/art:"+ids[2], "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, del.code, "%s", del.body)
			require.Equal(
				t,
				[]string{"art:" + ids[1], "art:" + ids[0]},
				handles(e.listAll(e.key, "/v1/refs/art")),
				"a deleted file leaves the listing",
			)
		})
	}
}

func TestRefsQueryRules(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			long := strings.Repeat("x", 101)
			for _, tc := range []struct {
				path   string
				status int
				code   string
				field  any
			}{
				{"/v1/refs/art?q=shoe", 422, "field_not_supported", "q"},
				{"/v1/refs/moodboard?q=shoe", 422, "field_not_supported", "q"},
				{"/v1/refs/file?base=model:abc", 422, "field_not_supported", "base"},
				{"/v1/refs/pose?base=model:abc", 422, "field_not_supported", "base"},
				{"/v1/refs/model?base=" + long, 422, "invalid_request", "base"},
				{"/v1/refs/model?base=art:abc", 422, "invalid_request", "base"},
				{"/v1/refs/file?q=" + long, 422, "invalid_request", "q"},
				{"/v1/refs/file?curated=true", 422, "field_not_supported", "curated"},
				{"/v1/refs/fabric?curated=yes", 422, "invalid_request", "curated"},
				{"/v1/refs/file?limit=0", 422, "invalid_request", "limit"},
				{"/v1/refs/file?limit=101", 422, "invalid_request", "limit"},
				{"/v1/refs/file?limit=ten", 422, "invalid_request", "limit"},
				{"/v1/refs/file?cursor=%21%21", 422, "invalid_request", "cursor"},
				{"/v1/refs/file?cursor=" + paging.EncodeCursor("nope"), 422, "invalid_request", "cursor"},
				{"/v1/refs/pose?cursor=" + paging.EncodeCursor("nope"), 422, "invalid_request", "cursor"},
				{"/v1/refs/files", 404, "not_found", nil},
				{"/v1/refs/Art", 404, "not_found", nil},
			} {
				res := e.send(http.MethodGet, tc.path, "", keyed(e.key)...)
				require.Equal(t, tc.status, res.code, "%s: %s", tc.path, res.body)
				require.Equal(t, tc.code, res.errCode(t), tc.path)
				require.Equal(t, tc.field, res.errObj(t)["field"], tc.path)
			}

			// Kinds this service keeps no records of list nothing.
			for _, path := range []string{"/v1/refs/background", "/v1/refs/pose", "/v1/refs/pose_preset", "/v1/refs/brand_kit",
				"/v1/refs/range_plan",
				"/v1/refs/photoshoot", "/v1/refs/model?q=anna", "/v1/refs/model?base=model:abc", "/v1/refs/moodboard?curated=true",
				"/v1/refs/fabric?curated=false", "/v1/refs/file?q=" + strings.Repeat("x", 100)} {
				res := e.send(http.MethodGet, path, "", keyed(e.key)...)
				require.Equal(t, http.StatusOK, res.code, "%s: %s", path, res.body)
				require.Equal(t, map[string]any{"items": []any{}, "has_more": false}, res.obj(t), path)
			}

			noScope, _ := e.newKey(e.user.ID, []string{models.ScopeJobsRead}, nil)
			res := e.send(http.MethodGet, "/v1/refs/file", "", keyed(noScope)...)
			require.Equal(t, http.StatusForbidden, res.code)
			require.Equal(t, "scope_missing", res.errCode(t))
		})
	}
}

func TestFilesReadByHandle(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			up := e.upload(e.key, part{"file", "a.png", string(pngBytes(t))})
			require.Equal(t, http.StatusCreated, up.code)
			mine := up.obj(t)["file"].(string)
			art := e.addOutputs(e.user.ID, "j_mine", 1, time.Now().UTC())[0]
			_, otherKey, _ := e.account(models.PlanStandard)
			theirs := e.upload(otherKey, part{"file", "a.png", string(pngBytes(t))}).obj(t)["file"].(string)

			for _, ref := range []string{theirs, "file:" + art, "file:nope", "pose:abc", "thing:abc", "nohandle"} {
				res := e.send(http.MethodGet, "/v1/files/"+ref, "", keyed(e.key)...)
				require.Equal(t, http.StatusNotFound, res.code, "%s: %s", ref, res.body)
				require.Equal(t, "file_not_found", res.errCode(t), ref)
				require.Nil(t, res.errObj(t)["field"], ref)
			}
			require.Equal(t, http.StatusOK, e.send(http.MethodGet, "/v1/files/"+mine, "", keyed(e.key)...).code)
			read := e.send(http.MethodGet, "/v1/files/art:"+art, "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, read.code, "%s", read.body)
			require.Equal(t, true, read.obj(t)["deletable"])
			require.Equal(t, "j_mine", read.obj(t)["job_id"])
		})
	}
}

// TestFilesDeleteOnlyOwnArt deletes every sort of handle: the caller's own
// art: handle is deleted (and answers 404 afterwards, to a delete and a
// read); every other handle — another account's, an unknown one, an upload,
// a record, a malformed one — answers the same 422 file_not_deletable, so a
// delete never tells whether another account's handle exists.
func TestFilesDeleteOnlyOwnArt(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			now := time.Now().UTC()
			arts := e.addOutputs(e.user.ID, "j_mine", 2, now)
			mine := e.upload(e.key, part{"file", "a.png", string(pngBytes(t))}).obj(t)["file"].(string)
			other, otherKey, _ := e.account(models.PlanStandard)
			theirArts := e.addOutputs(other.ID, "j_theirs", 2, now)
			theirs := e.upload(otherKey, part{"file", "a.png", string(pngBytes(t))}).obj(t)["file"].(string)
			require.Equal(
				t,
				http.StatusOK,
				e.send(http.MethodDelete, "/v1/files/art:"+theirArts[1], "", keyed(otherKey)...).code,
			)
			require.Equal(
				t,
				http.StatusOK,
				e.send(http.MethodDelete, "/v1/files/art:"+arts[1], "", keyed(e.key)...).code,
			)

			refused := map[string]any{}
			for _, tc := range []struct {
				name, ref string
				status    int
				code      string
			}{
				{"own live art", "art:" + arts[0], 200, ""},
				{"own art deleted just now", "art:" + arts[0], 404, "file_not_found"},
				{"own art deleted before", "art:" + arts[1], 404, "file_not_found"},
				{"another account's art", "art:" + theirArts[0], 422, "file_not_deletable"},
				{"another account's deleted art", "art:" + theirArts[1], 422, "file_not_deletable"},
				{"unknown art", "art:" + models.NewID(""), 422, "file_not_deletable"},
				{"own upload as art", "art:" + strings.TrimPrefix(mine, "file:"), 422, "file_not_deletable"},
				{"own upload", mine, 422, "file_not_deletable"},
				{"another account's upload", theirs, 422, "file_not_deletable"},
				{"own art as file", "file:" + arts[0], 422, "file_not_deletable"},
				{"unknown upload", "file:nope", 422, "file_not_deletable"},
				{"record", "moodboard:abc", 422, "file_not_deletable"},
				{"library record", "background:abc", 422, "file_not_deletable"},
				{"unknown kind", "thing:abc", 422, "file_not_deletable"},
				{"no id", "art:", 422, "file_not_deletable"},
				{"no kind", "nohandle", 422, "file_not_deletable"},
			} {
				res := e.send(http.MethodDelete, "/v1/files/"+tc.ref, "", keyed(e.key)...)
				require.Equal(t, tc.status, res.code, "%s %s: %s", tc.name, tc.ref, res.body)
				if tc.code == "" {
					require.Equal(t, map[string]any{"file": tc.ref, "deleted": true}, res.obj(t), tc.name)
					continue
				}
				require.Equal(t, tc.code, res.errCode(t), tc.name)
				body := res.errObj(t)
				require.Nil(t, body["field"], tc.name)
				if tc.status == 422 {
					delete(body, "request_id")
					if len(refused) > 0 {
						require.Equal(t, refused, body, "%s answers what every other refused handle answers", tc.name)
					}
					refused = body
				}
			}
			for _, ref := range []string{"art:" + arts[0], "art:" + arts[1]} {
				require.Equal(
					t,
					http.StatusNotFound,
					e.send(http.MethodGet, "/v1/files/"+ref, "", keyed(e.key)...).code,
					ref,
				)
			}
			for _, ref := range []string{"art:" + theirArts[0], theirs} {
				require.Equal(
					t,
					http.StatusOK,
					e.send(http.MethodGet, "/v1/files/"+ref, "", keyed(otherKey)...).code,
					"%s is kept",
					ref,
				)
			}
			require.Equal(
				t,
				http.StatusOK,
				e.send(http.MethodGet, "/v1/files/"+mine, "", keyed(e.key)...).code,
				"the upload is kept",
			)
		})
	}
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
