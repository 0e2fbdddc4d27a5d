package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
)

// opsRoutes are the operator endpoints and the public files and keys,
// outside /v1.
func opsRoutes() []route {
	checks := object(oa{"database": str(), "temporal": str(), "library": str()}, "database", "temporal", "library")
	probe := object(oa{"status": str(), "checks": checks}, "status", "checks")
	return tagged("operations",
		route{method: http.MethodGet, path: "/healthz", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return h.health.live },
			op: operation{id: "healthz", summary: "Liveness: the process is up",
				answers: []response{
					jsonAnswer(http.StatusOK, "The process is up.", object(oa{"status": str()}, "status")),
				}}},
		route{method: http.MethodGet, path: "/readyz", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return h.health.ready },
			op: operation{
				id:      "readyz",
				summary: "Readiness: the database and Temporal answer and the libraries are written",
				answers: []response{jsonAnswer(http.StatusOK, "Ready.", probe),
					jsonAnswer(http.StatusServiceUnavailable, "Not ready; checks names what is down.", probe)},
			}},
		route{method: http.MethodGet, path: "/metrics", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc {
				if h.d.Metrics == nil {
					return nil
				}
				return gin.WrapH(h.d.Metrics.Handler())
			},
			op: operation{id: "metrics", summary: "Prometheus metrics of the HTTP API (served when metrics are on)",
				answers: []response{textAnswer("The Prometheus text exposition format.")}}},
		route{method: http.MethodGet, path: "/files/{blob}", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return blobDownload(h.d) },
			op: operation{id: "file_download", summary: "A stored file's bytes, at the url of its record",
				description: "Served inert: the stored media type with nosniff, a sandboxing Content-Security-Policy, and " +
					"attachment for non-images.",
				params:  []oa{pathParam("blob", "The file's id with its extension, as in its url.", str())},
				answers: []response{bytesAnswer("The file's bytes in its stored media type.", "*/*")},
				errors:  []int{http.StatusNotFound}}},
		route{method: http.MethodGet, path: "/files/engine/{grant}", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return engineInput(h.d) },
			op: operation{id: "engine_input", summary: "A caller's file, for the model server an engine step runs on",
				description: "The URL is signed by the service, names one file and expires with the step; a grant " +
					"that does not hold answers 404.",
				params:  []oa{pathParam("grant", "The signed grant (a compact JWS) of the URL.", str())},
				answers: []response{bytesAnswer("The file's bytes in the type read from them.", "*/*")},
				errors:  []int{http.StatusNotFound}}},
		route{method: http.MethodPost, path: "/engines/predictions/{prediction_id}/{token}", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return engineHook(h.d) },
			op: operation{id: "engine_prediction_hook",
				summary: "A model server's webhook of an async prediction (the address the service gave it)",
				description: "For the operator's engines (TP_ENGINES), not for callers: the body is the prediction " +
					"as the Cog HTTP protocol reports it. The token, made for that one prediction, authenticates it.",
				params: []oa{pathParam("prediction_id", "The prediction's id.", str()),
					pathParam("token", "The prediction's token.", str())},
				answers: []response{{status: http.StatusNoContent, description: "Stored for the step that waits."}},
				errors: []int{http.StatusUnprocessableEntity, http.StatusNotFound, http.StatusRequestEntityTooLarge,
					http.StatusUnsupportedMediaType}}},
		route{method: http.MethodGet, path: "/.well-known/jwks.json", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc {
				if h.d.Signer == nil {
					return nil
				}
				return func(c *gin.Context) {
					c.Header("Cache-Control", "public, max-age=3600")
					c.JSON(http.StatusOK, h.d.Signer.JWKS())
				}
			},
			op: operation{id: "jwks", summary: "Public keys (OKP, Ed25519) of webhook signatures",
				answers: []response{jsonAnswer(http.StatusOK, "The key set, the signing key first.", ref("JWKS"))}}},
	)
}
