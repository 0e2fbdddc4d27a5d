package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

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
