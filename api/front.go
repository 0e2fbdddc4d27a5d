package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
)

// Front is the API's front door for what the process serves beside the
// API's routes (the account panel's pages): the rules of middleware.Front,
// with d's logger, rate limit, transport and trusted proxies.
func Front(d Deps, next http.Handler) http.Handler {
	d.defaults()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	proxies := trustProxies(r, &d)
	middleware.Front(r, d.Log, middleware.NewLimiter(d.DB, d.RateLimit, d.RateWindow), d.Production, proxies, next)
	return r
}
