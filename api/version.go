package api

import "github.com/gin-gonic/gin"

const versionKey = "service_version"

// versionOf is the contract version the request is served under.
func versionOf(c *gin.Context) string {
	if v := c.GetString(versionKey); v != "" {
		return v
	}
	return CurrentVersion
}
