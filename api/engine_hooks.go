package api

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/enginehooks"
)

// engineHook answers POST /engines/predictions/{prediction_id}/{token}: a
// model server's webhook of an async prediction (docs/engines/README.md).
// No API key: the token in the address, made for that one prediction, is
// the authentication. 204 once stored, 404 for an address no step made.
func engineHook(d *Deps) gin.HandlerFunc {
	return func(c *gin.Context) {
		body, err := middleware.ReadJSONBody(c, enginehooks.MaxBytes)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		err = enginehooks.Record(c.Request.Context(), d.DB, c.Param("prediction_id"), c.Param("token"), body)
		switch {
		case errors.Is(err, enginehooks.ErrUnknown):
			middleware.Fail(c, middleware.ErrNotFound)
		case errors.Is(err, enginehooks.ErrBadBody):
			middleware.Fail(c, apierr.New(apierr.InvalidRequest, "The body is not a prediction."))
		case err != nil:
			middleware.Fail(c, err)
		default:
			c.Status(http.StatusNoContent)
		}
	}
}
