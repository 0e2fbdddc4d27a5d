package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// joseMediaType is the compact serialization's media type (RFC 7515 §9.2.1).
const joseMediaType = "application/jose"

// manifest answers GET /v1/jobs/{id}/manifest: once the job has ended and
// its credits are settled, a JWS over wire.Manifest signed with the
// webhook key — the flattened JSON serialization, or the compact one when
// the request accepts application/jose.
func (h *jobHandlers) manifest(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	if j.SettledAt == nil {
		middleware.Fail(c, apierr.New(apierr.ResultNotReady,
			"The job has not ended; its manifest is signed once it ends and its credits are settled.").WithJob(j.ID))
		return
	}
	files, err := models.DeliveredFiles(c.Request.Context(), h.d.DB, j.ID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	payload, err := json.Marshal(j.Manifest(h.d.BaseURL, files))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	jws := h.d.Signer.SignJWS(wire.ManifestType, payload)
	if strings.Contains(c.GetHeader("Accept"), joseMediaType) {
		c.Data(http.StatusOK, joseMediaType, []byte(jws.Compact()))
		return
	}
	c.JSON(http.StatusOK, jws)
}
