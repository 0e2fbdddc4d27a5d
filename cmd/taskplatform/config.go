package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// config is every TP_* variable the binary reads.
type config struct {
	HTTPAddr          string        // TP_HTTP_ADDR
	BaseURL           string        // TP_BASE_URL
	FilesBaseURL      string        // TP_FILES_BASE_URL
	EngineCallbackURL string        // TP_ENGINE_CALLBACK_URL
	DataDir           string        // TP_DATA_DIR
	DatabaseURL       string        // TP_DATABASE_URL
	DatabaseMaxConns  int           // TP_DATABASE_MAX_CONNS (0: the process's default)
	TemporalAddress   string        // TP_TEMPORAL_ADDRESS
	TemporalAddrSet   bool          // TP_TEMPORAL_ADDRESS was set
	TemporalNamespace string        // TP_TEMPORAL_NAMESPACE
	TemporalPort      int           // TP_TEMPORAL_PORT
	TemporalUIPort    int           // TP_TEMPORAL_UI_PORT
	TemporalCLI       string        // TP_TEMPORAL_CLI
	AllowPrivateURLs  bool          // TP_ALLOW_PRIVATE_URLS
	RateLimit         int           // TP_RATE_LIMIT
	RateWindow        time.Duration // TP_RATE_WINDOW_SECONDS
	DevStepDelay      time.Duration // TP_DEV_STEP_DELAY
	BlobURL           string        // TP_BLOB_URL
	TLSCertFile       string        // TP_TLS_CERT_FILE
	TLSKeyFile        string        // TP_TLS_KEY_FILE
	MetricsAddr       string        // TP_METRICS_ADDR
	MaxConcurrentStep int           // TP_WORKER_MAX_STEPS
	TrustedProxies    []string      // TP_TRUSTED_PROXIES
	AnalysisCapacity  int           // TP_ANALYSIS_CAPACITY
	AnalysisDeadline  time.Duration // TP_ANALYSIS_DEADLINE
	LateAdmitDeadline time.Duration // TP_LATE_ADMIT_DEADLINE
	SMTPURL           string        // TP_SMTP_URL
	// Engines is the operator's engine configuration read from the file
	// TP_ENGINES names (nil: every task on its built-in engine).
	Engines *engines.Config // TP_ENGINES
	// Retention (the worker prunes; 0 keeps forever).
	RequestLogRetention time.Duration // TP_REQUEST_LOG_RETENTION
	DeliveryRetention   time.Duration // TP_DELIVERY_RETENTION
	PruneBatch          int           // TP_PRUNE_BATCH
}

// envVars lists the variables loadConfig reads (the compose test checks it).
var envVars = []string{
	"TP_LOG_LEVEL",
	"TP_SMTP_URL",
	"TP_HTTP_ADDR",
	"TP_BASE_URL",
	"TP_FILES_BASE_URL",
	"TP_ENGINE_CALLBACK_URL",
	"TP_DATA_DIR",
	"TP_DATABASE_URL",
	"TP_DATABASE_MAX_CONNS",
	"TP_TEMPORAL_ADDRESS",
	"TP_TEMPORAL_NAMESPACE",
	"TP_TEMPORAL_PORT",
	"TP_TEMPORAL_UI_PORT",
	"TP_TEMPORAL_CLI",
	"TP_ALLOW_PRIVATE_URLS",
	"TP_RATE_LIMIT",
	"TP_RATE_WINDOW_SECONDS",
	"TP_DEV_STEP_DELAY",
	"TP_BLOB_URL",
	"TP_TLS_CERT_FILE",
	"TP_TLS_KEY_FILE",
	"TP_METRICS_ADDR",
	"TP_WORKER_MAX_STEPS",
	"TP_TRUSTED_PROXIES",
	"TP_ANALYSIS_CAPACITY",
	"TP_ANALYSIS_DEADLINE",
	"TP_LATE_ADMIT_DEADLINE",
	"TP_REQUEST_LOG_RETENTION",
	"TP_DELIVERY_RETENTION",
	"TP_PRUNE_BATCH",
	"TP_ENGINES",
	"TP_CMYK_PROFILE",
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func loadConfig() (config, error) {
	c := config{
		HTTPAddr:          env("TP_HTTP_ADDR", "127.0.0.1:8080"),
		DataDir:           env("TP_DATA_DIR", ".data"),
		DatabaseURL:       env("TP_DATABASE_URL", ""),
		TemporalAddress:   env("TP_TEMPORAL_ADDRESS", ""),
		TemporalNamespace: env("TP_TEMPORAL_NAMESPACE", "default"),
		TemporalCLI:       env("TP_TEMPORAL_CLI", ""),
		BlobURL:           env("TP_BLOB_URL", ""),
		TLSCertFile:       env("TP_TLS_CERT_FILE", ""),
		TLSKeyFile:        env("TP_TLS_KEY_FILE", ""),
		MetricsAddr:       env("TP_METRICS_ADDR", "127.0.0.1:9464"),
	}
	for _, p := range strings.Split(env("TP_TRUSTED_PROXIES", ""), ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.TrustedProxies = append(c.TrustedProxies, p)
		}
	}
	c.TemporalAddrSet = c.TemporalAddress != ""
	var errs validation.Errors = map[string]error{}
	intVar := func(name string, def int, dst *int) {
		n, err := strconv.Atoi(env(name, strconv.Itoa(def)))
		if err != nil || n < 0 {
			errs[name] = fmt.Errorf("must be a non-negative whole number")
		}
		*dst = n
	}
	intVar("TP_TEMPORAL_PORT", 7233, &c.TemporalPort)
	intVar("TP_TEMPORAL_UI_PORT", 8233, &c.TemporalUIPort)
	intVar("TP_RATE_LIMIT", 600, &c.RateLimit)
	intVar("TP_WORKER_MAX_STEPS", 0, &c.MaxConcurrentStep)
	intVar("TP_ANALYSIS_CAPACITY", 2, &c.AnalysisCapacity)
	intVar("TP_PRUNE_BATCH", 5000, &c.PruneBatch)
	intVar("TP_DATABASE_MAX_CONNS", 0, &c.DatabaseMaxConns)
	var window int
	intVar("TP_RATE_WINDOW_SECONDS", 60, &window)
	c.RateWindow = time.Duration(window) * time.Second
	if b, err := strconv.ParseBool(env("TP_ALLOW_PRIVATE_URLS", "false")); err != nil {
		errs["TP_ALLOW_PRIVATE_URLS"] = fmt.Errorf("must be true or false")
	} else {
		c.AllowPrivateURLs = b
	}
	if c.SMTPURL = env("TP_SMTP_URL", ""); c.SMTPURL != "" {
		if _, err := activities.NewSMTP(c.SMTPURL); err != nil {
			errs["TP_SMTP_URL"] = err
		}
	}
	// The CMYK conversion of every sheet and print file (colour.SetPress).
	if err := colour.SetPress(env("TP_CMYK_PROFILE", "auto")); err != nil {
		errs["TP_CMYK_PROFILE"] = err
	}
	if d, err := time.ParseDuration(env("TP_ANALYSIS_DEADLINE", "1m")); err != nil || d <= 0 {
		errs["TP_ANALYSIS_DEADLINE"] = fmt.Errorf("must be a positive Go duration such as 30s")
	} else {
		c.AnalysisDeadline = d
	}
	if d, err := time.ParseDuration(env("TP_LATE_ADMIT_DEADLINE", "10m")); err != nil || d <= 0 {
		errs["TP_LATE_ADMIT_DEADLINE"] = fmt.Errorf("must be a positive Go duration such as 10m")
	} else {
		c.LateAdmitDeadline = d
	}
	for name, dst := range map[string]*time.Duration{"TP_REQUEST_LOG_RETENTION": &c.RequestLogRetention,
		"TP_DELIVERY_RETENTION": &c.DeliveryRetention} {
		def := map[string]string{"TP_REQUEST_LOG_RETENTION": "90d", "TP_DELIVERY_RETENTION": "30d"}[name]
		if d, err := parseRetention(env(name, def)); err != nil {
			errs[name] = err
		} else {
			*dst = d
		}
	}
	if path := env("TP_ENGINES", ""); path != "" {
		if ec, err := engines.Load(path); err != nil {
			errs["TP_ENGINES"] = err
		} else {
			c.Engines = ec
		}
	}
	if d, err := time.ParseDuration(env("TP_DEV_STEP_DELAY", "0s")); err != nil {
		errs["TP_DEV_STEP_DELAY"] = fmt.Errorf("must be a Go duration such as 500ms")
	} else {
		c.DevStepDelay = d
	}
	for _, p := range c.TrustedProxies {
		if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
			errs["TP_TRUSTED_PROXIES"] = fmt.Errorf("%q is neither an IP address nor a CIDR", p)
		}
	}
	if c.TemporalAddress == "" {
		c.TemporalAddress = net.JoinHostPort("127.0.0.1", strconv.Itoa(c.TemporalPort))
	}
	c.BaseURL = env("TP_BASE_URL", "http://"+c.HTTPAddr)
	c.FilesBaseURL = strings.TrimSuffix(env("TP_FILES_BASE_URL", c.BaseURL), "/")
	c.EngineCallbackURL = strings.TrimSuffix(env("TP_ENGINE_CALLBACK_URL", c.BaseURL), "/")
	if c.BlobURL == "" {
		// Types live in the files table: no metadata sidecar file per blob.
		// A write's temporary file is made beside its blob, not in TMPDIR:
		// renamed from another filesystem (a tmpfs /tmp) it would fail.
		c.BlobURL = "file://" + absPath(c.DataDir) + "/blobs?create_dir=true&metadata=skip&no_tmp_dir=true"
	}
	// A rule only adds an error: it must not overwrite (with nil) one that
	// parsing already found.
	check := func(name string, value any, rules ...validation.Rule) {
		if errs[name] == nil {
			if err := validation.Validate(value, rules...); err != nil {
				errs[name] = err
			}
		}
	}
	check("TP_HTTP_ADDR", c.HTTPAddr, validation.Required, validation.By(hostPort))
	if env("TP_FILES_BASE_URL", "") != "" {
		check("TP_FILES_BASE_URL", c.FilesBaseURL, validation.By(httpBase))
	}
	if env("TP_ENGINE_CALLBACK_URL", "") != "" {
		check("TP_ENGINE_CALLBACK_URL", c.EngineCallbackURL, validation.By(httpBase))
	}
	if _, err := logLevel(); err != nil {
		errs["TP_LOG_LEVEL"] = errors.New("must be debug, info, warn or error")
	}
	check("TP_RATE_LIMIT", c.RateLimit, validation.Min(1))
	check("TP_RATE_WINDOW_SECONDS", window, validation.Min(1))
	check("TP_PRUNE_BATCH", c.PruneBatch, validation.Min(1))
	if err := errs.Filter(); err != nil {
		return c, err
	}
	return c, nil
}

// parseRetention reads a retention: whole days ("90d") or a Go duration
// ("36h"); 0 keeps forever.
func parseRetention(v string) (time.Duration, error) {
	bad := errors.New("must be whole days such as 90d, a Go duration such as 36h, or 0 to keep forever")
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, bad
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, bad
	}
	return d, nil
}

func hostPort(v any) error {
	_, _, err := net.SplitHostPort(v.(string))
	return err
}

// httpBase accepts an absolute http(s) URL with a host and no query.
func httpBase(v any) error {
	u, err := url.Parse(v.(string))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" ||
		u.Fragment != "" {
		return errors.New("must be an absolute http:// or https:// URL such as https://files.example.com")
	}
	return nil
}
