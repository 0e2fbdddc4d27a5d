package api

import "github.com/gin-gonic/gin"

// registerCatalogue adds the public catalogue routes (being built in api/catalogue*.go).
func registerCatalogue(v1 *gin.RouterGroup, auth *authenticator, d *Deps) {}
