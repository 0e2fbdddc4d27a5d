package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
)

// opsRoutes are the operator endpoints and the public files and keys,
// outside /v1.
func opsRoutes() []route {
	checks := openapi.Object(
		oa{"database": openapi.Str(), "temporal": openapi.Str(), "library": openapi.Str()},
		"database",
		"temporal",
		"library",
	)
	probe := openapi.Object(oa{"status": openapi.Str(), "checks": checks}, "status", "checks")
	return tagged(
		"operations",
		route{method: http.MethodGet, path: "/healthz", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return h.health.live },
			op: openapi.Operation{ID: "healthz", Summary: "Liveness: the process is up",
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusOK,
						"The process is up.",
						openapi.Object(oa{"status": openapi.Str()}, "status"),
					),
				}}},
		route{method: http.MethodGet, path: "/readyz", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return h.health.ready },
			op: openapi.Operation{
				ID:      "readyz",
				Summary: "Readiness: the database and Temporal answer and the libraries are written",
				Answers: []openapi.Response{openapi.JSONAnswer(http.StatusOK, "Ready.", probe),
					openapi.JSONAnswer(http.StatusServiceUnavailable, "Not ready; checks names what is down.", probe)},
			}},
		route{method: http.MethodGet, path: "/metrics", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc {
				if h.d.Metrics == nil {
					return nil
				}
				return gin.WrapH(h.d.Metrics.Handler())
			},
			op: openapi.Operation{
				ID:      "metrics",
				Summary: "Prometheus metrics of the HTTP API (served when metrics are on)",
				Answers: []openapi.Response{openapi.TextAnswer("The Prometheus text exposition format.")},
			}},
		route{method: http.MethodGet, path: "/files/{blob}", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return blobDownload(h.d) },
			op: openapi.Operation{ID: "file_download", Summary: "A stored file's bytes, at the url of its record",
				Description: "Served inert: the stored media type with nosniff, a sandboxing Content-Security-Policy, and " +
					"attachment for non-images.",
				Params: []oa{
					openapi.PathParam("blob", "The file's id with its extension, as in its url.", openapi.Str()),
				},
				Answers: []openapi.Response{openapi.BytesAnswer("The file's bytes in its stored media type.", "*/*")},
				Errors:  []int{http.StatusNotFound}}},
		route{method: http.MethodGet, path: "/files/engine/{grant}", access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return engineInput(h.d) },
			op: openapi.Operation{
				ID:      "engine_input",
				Summary: "A caller's file, for the model server an engine step runs on",
				Description: "The URL is signed by the service, names one file and expires with the step; a grant " +
					"that does not hold answers 404.",
				Params: []oa{
					openapi.PathParam("grant", "The signed grant (a compact JWS) of the URL.", openapi.Str()),
				},
				Answers: []openapi.Response{openapi.BytesAnswer("The file's bytes in the type read from them.", "*/*")},
				Errors:  []int{http.StatusNotFound},
			}},
		route{
			method: http.MethodPost,
			path:   "/engines/predictions/{prediction_id}/{token}",
			access: middleware.AccessPublic,
			handle: func(h *handlers) gin.HandlerFunc { return engineHook(h.d) },
			op: openapi.Operation{ID: "engine_prediction_hook",
				Summary: "A model server's webhook of an async prediction (the address the service gave it)",
				Description: "For the operator's engines (TP_ENGINES), not for callers: the body is the prediction " +
					"as the Cog HTTP protocol reports it. The token, made for that one prediction, authenticates it.",
				Params: []oa{openapi.PathParam("prediction_id", "The prediction's id.", openapi.Str()),
					openapi.PathParam("token", "The prediction's token.", openapi.Str())},
				Answers: []openapi.Response{
					{Status: http.StatusNoContent, Description: "Stored for the step that waits."},
				},
				Errors: []int{http.StatusUnprocessableEntity, http.StatusNotFound, http.StatusRequestEntityTooLarge,
					http.StatusUnsupportedMediaType}},
		},
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
			op: openapi.Operation{ID: "jwks", Summary: "Public keys (OKP, Ed25519) of webhook signatures",
				Answers: []openapi.Response{
					openapi.JSONAnswer(http.StatusOK, "The key set, the signing key first.", openapi.Ref("JWKS")),
				}}},
	)
}
