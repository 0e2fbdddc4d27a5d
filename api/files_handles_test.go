package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

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
