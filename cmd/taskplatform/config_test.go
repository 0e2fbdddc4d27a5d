package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// clearEnv unsets every TP_* variable the binary reads for one test.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, name := range envVars {
		t.Setenv(name, "")
	}
}

func TestLoadConfigDefaults(t *testing.T) {
	clearEnv(t)
	c, err := loadConfig()
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", c.HTTPAddr)
	require.Equal(t, "http://127.0.0.1:8080", c.BaseURL)
	require.Equal(t, c.BaseURL, c.FilesBaseURL, "files are served from the API's base by default")
	require.Equal(t, ".data", c.DataDir)
	require.Empty(t, c.DatabaseURL)
	require.Equal(t, "127.0.0.1:7233", c.TemporalAddress)
	require.False(t, c.TemporalAddrSet)
	require.Equal(t, 7233, c.TemporalPort)
	require.Equal(t, 8233, c.TemporalUIPort)
	require.Equal(t, 600, c.RateLimit)
	require.Equal(t, time.Minute, c.RateWindow)
	require.False(t, c.AllowPrivateURLs)
	require.Zero(t, c.DevStepDelay)
	require.Equal(t, 10*time.Minute, c.LateAdmitDeadline)
	require.Zero(t, c.DatabaseMaxConns, "0: the process's own default")
}

func TestLoadConfigValues(t *testing.T) {
	clearEnv(t)
	t.Setenv("TP_HTTP_ADDR", "0.0.0.0:9000")
	t.Setenv("TP_TEMPORAL_PORT", "17233")
	t.Setenv("TP_RATE_LIMIT", "5")
	t.Setenv("TP_RATE_WINDOW_SECONDS", "2")
	t.Setenv("TP_ALLOW_PRIVATE_URLS", "true")
	t.Setenv("TP_DEV_STEP_DELAY", "250ms")
	t.Setenv("TP_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7")
	t.Setenv("TP_FILES_BASE_URL", "https://files.example.com/")
	t.Setenv("TP_LATE_ADMIT_DEADLINE", "90s")
	t.Setenv("TP_DATABASE_MAX_CONNS", "12")
	c, err := loadConfig()
	require.NoError(t, err)
	require.Equal(t, 12, c.DatabaseMaxConns)
	require.Equal(t, "http://0.0.0.0:9000", c.BaseURL)
	require.Equal(t, "https://files.example.com", c.FilesBaseURL)
	require.Equal(t, "127.0.0.1:17233", c.TemporalAddress, "dev dials its own server's port")
	require.False(t, c.TemporalAddrSet)
	require.Equal(t, 5, c.RateLimit)
	require.Equal(t, 2*time.Second, c.RateWindow)
	require.True(t, c.AllowPrivateURLs)
	require.Equal(t, 250*time.Millisecond, c.DevStepDelay)
	require.Equal(t, []string{"10.0.0.0/8", "192.0.2.7"}, c.TrustedProxies)
	require.Equal(t, 90*time.Second, c.LateAdmitDeadline)

	t.Setenv("TP_TEMPORAL_ADDRESS", "temporal:7233")
	c, err = loadConfig()
	require.NoError(t, err)
	require.Equal(t, "temporal:7233", c.TemporalAddress)
	require.True(t, c.TemporalAddrSet)
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string // every one appears in the error
	}{
		{
			"rate limit not a number",
			map[string]string{"TP_RATE_LIMIT": "lots"},
			[]string{"TP_RATE_LIMIT: must be a non-negative whole number"},
		},
		{
			"rate limit negative",
			map[string]string{"TP_RATE_LIMIT": "-3"},
			[]string{"TP_RATE_LIMIT: must be a non-negative whole number"},
		},
		{"rate limit zero", map[string]string{"TP_RATE_LIMIT": "0"}, []string{"TP_RATE_LIMIT: must be no less than 1"}},
		{
			"rate window zero",
			map[string]string{"TP_RATE_WINDOW_SECONDS": "0"},
			[]string{"TP_RATE_WINDOW_SECONDS: must be no less than 1"},
		},
		{"port not a number", map[string]string{"TP_TEMPORAL_PORT": "x"}, []string{"TP_TEMPORAL_PORT"}},
		{"listen address without port", map[string]string{"TP_HTTP_ADDR": "localhost"}, []string{"TP_HTTP_ADDR"}},
		{
			"bool",
			map[string]string{"TP_ALLOW_PRIVATE_URLS": "maybe"},
			[]string{"TP_ALLOW_PRIVATE_URLS: must be true or false"},
		},
		{"duration", map[string]string{"TP_DEV_STEP_DELAY": "5"}, []string{"TP_DEV_STEP_DELAY: must be a Go duration"}},
		{"late admit deadline", map[string]string{"TP_LATE_ADMIT_DEADLINE": "0s"},
			[]string{"TP_LATE_ADMIT_DEADLINE: must be a positive"}},
		{
			"trusted proxy",
			map[string]string{"TP_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"},
			[]string{`TP_TRUSTED_PROXIES: "proxy.local" is neither`},
		},
		{
			"files base URL not absolute",
			map[string]string{"TP_FILES_BASE_URL": "files.example.com"},
			[]string{"TP_FILES_BASE_URL: must be an absolute"},
		},
		{
			"files base URL not http",
			map[string]string{"TP_FILES_BASE_URL": "ftp://files.example.com"},
			[]string{"TP_FILES_BASE_URL"},
		},
		{
			"every error is reported",
			map[string]string{"TP_RATE_LIMIT": "lots", "TP_HTTP_ADDR": "8080", "TP_WORKER_MAX_STEPS": "-1"},
			[]string{"TP_RATE_LIMIT: must be a non-negative whole number", "TP_HTTP_ADDR", "TP_WORKER_MAX_STEPS"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			_, err := loadConfig()
			require.Error(t, err)
			for _, w := range tt.want {
				require.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestLoadConfigRefusesABadCMYKProfile: a profile that cannot be read or
// is not a CMYK output profile stops the start with the variable named.
func TestLoadConfigRefusesABadCMYKProfile(t *testing.T) {
	clearEnv(t)
	t.Setenv("TP_CMYK_PROFILE", t.TempDir()+"/missing.icc")
	_, err := loadConfig()
	require.ErrorContains(t, err, "TP_CMYK_PROFILE")
	t.Setenv("TP_CMYK_PROFILE", "formula")
	_, err = loadConfig()
	require.NoError(t, err)
	t.Setenv("TP_CMYK_PROFILE", "")
	_, err = loadConfig()
	require.NoError(t, err)
}
