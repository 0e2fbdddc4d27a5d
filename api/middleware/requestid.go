package middleware

import (
	"regexp"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/models"
)

const requestIDKey = "request_id"

var clientRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// AssignRequestID gives every request the service's own req_ id, answered in
// X-Request-ID; a valid caller X-Request-ID is echoed in X-Client-Request-ID
// and anything else is ignored.
func AssignRequestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := models.NewID("req_")
		c.Set(requestIDKey, id)
		c.Header("X-Request-ID", id)
		if v := c.GetHeader("X-Request-ID"); clientRequestID.MatchString(v) {
			c.Header("X-Client-Request-ID", v)
		}
		c.Next()
	}
}

func RequestIDOf(c *gin.Context) string { return c.GetString(requestIDKey) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
