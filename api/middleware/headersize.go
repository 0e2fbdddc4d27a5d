package middleware

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
)

// MaxHeaderBytes is the size of the request line and headers the API reads;
// over it a request answers 431 headers_too_large in the error shape. The
// HTTP server's own (plain-text) limit must sit well above it.
const MaxHeaderBytes = 32 << 10

// LimitHeaders answers 431 headers_too_large (through refuse) to a request
// whose request line and headers are over MaxHeaderBytes, and closes the
// connection.
func LimitHeaders(refuse Refusal) gin.HandlerFunc {
	return func(c *gin.Context) {
		if n := headerBytes(c.Request); n > MaxHeaderBytes {
			c.Header("Connection", "close")
			refuse(
				c,
				apierr.Newf(
					apierr.HeadersTooLarge,
					"The request line and headers are %d bytes; at most %d are read.",
					n,
					MaxHeaderBytes,
				),
			)
			return
		}
		c.Next()
	}
}

// headerBytes is the size of the request line and header fields as they
// were sent, counted from the parsed request (separators and line ends
// included).
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + len("  \r\n")
	n += len("Host: \r\n") + len(r.Host)
	for name, vs := range r.Header {
		for _, v := range vs {
			n += len(name) + len(v) + len(": \r\n")
		}
	}
	return n
}
