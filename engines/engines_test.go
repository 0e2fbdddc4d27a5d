package engines_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// fake starts a Cog test server closed at the end of the test.
func fake(t *testing.T, o cogtest.Options) *cogtest.Server {
	t.Helper()
	s := cogtest.New(o)
	t.Cleanup(s.Close)
	return s
}

// clients are a test's clients: the fetch client keeps the address rules
// of production (no private addresses) unless private.
func clients(private bool) engines.Clients {
	return engines.Clients{Fetch: outbound.New(outbound.Options{AllowPrivate: private, Timeout: 5 * time.Second})}
}

// example loads docs/engines/sdxl.yaml with its engine at url.
func example(t *testing.T, url string, edit func(*engines.Config)) *engines.Config {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", "engines", "sdxl.yaml"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "engines.yaml")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), "http://127.0.0.1:5000", url)),
		0o600))
	cfg, err := engines.Load(path)
	require.NoError(t, err)
	for name, e := range cfg.Engines {
		e.WebhookListen, e.WebhookURL = "127.0.0.1:0", "" // a free port per test
		e.UploadURL = ""                                  // no upload store unless a test gives one
		cfg.Engines[name] = e
	}
	if edit != nil {
		edit(cfg)
	}
	return cfg
}

// mode sets an engine's mode: sync drops the webhook listener.
func mode(e engines.EngineConfig, m string) engines.EngineConfig {
	e.Mode = m
	if m == "sync" {
		e.WebhookListen, e.WebhookURL = "", ""
	}
	return e
}

// assemble is the registry of cfg with the log lines it wrote.
func assemble(t *testing.T, cfg *engines.Config, cl engines.Clients) (*tasks.Registry, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.InfoLevel)
	r, err := engines.Assemble(cfg, all.Families(), cl, zap.New(core))
	require.NoError(t, err)
	return r, logs
}

func step(t *testing.T, d *tasks.Definition, body string, i int) (tasks.Output, error) {
	t.Helper()
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	return d.Runner.Step(context.Background(), in, i)
}

func TestDeclaredTaskRunsOnCogSyncAndAsyncWithURLAndDataURIOutputs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mode  string
		asURL bool
		// async says the requests ask Prefer: respond-async.
		async bool
	}{
		// Cog answers an async prediction's files as paths on its disk
		// without an upload store: the engine holds the request open.
		{"async, no upload store: data URI", "async", false, false},
		{"async, upload store", "async", true, true},
		{"sync, data URI", "sync", false, false},
		{"sync, URL on the engine", "sync", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fake(t, cogtest.Options{AsURL: tc.asURL, Run: 50 * time.Millisecond})
			cfg := example(t, srv.URL, func(c *engines.Config) {
				e := mode(c.Engines["sdxl"], tc.mode)
				if tc.async {
					e.UploadURL = srv.URL + "/files/"
				}
				c.Engines["sdxl"] = e
			})
			r, _ := assemble(t, cfg, clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			out, err := step(t, d, `{"prompt":"a sage linen shirt","seed":7,"count":2}`, 1)
			require.NoError(t, err)
			require.Equal(t, "image/png", out.MediaType)
			require.Equal(t, "png", out.Ext)
			require.Equal(t, "sdxl", out.Engine)
			require.Equal(t, map[string]any{"engine": "sdxl", "index": 1}, out.Meta)
			inputs := srv.Inputs()
			require.Len(t, inputs, 1)
			require.Equal(t, "a sage linen shirt", inputs[0]["prompt"])
			require.EqualValues(t, 8, inputs[0]["seed"], "seed + index")
			require.EqualValues(t, 1024, inputs[0]["width"])
			reqs := srv.Requests()
			require.Len(t, reqs, 1)
			require.Equal(t, http.MethodPut, reqs[0].Method, "the idempotent create")
			require.Equal(t, tc.async, reqs[0].Async)
			if !tc.async {
				require.Empty(t, reqs[0].Webhook)
				require.Empty(t, srv.Webhooks())
				return
			}
			require.Equal(t, []string{"start", "logs", "completed"}, reqs[0].Events)
			require.True(t, strings.HasPrefix(reqs[0].Webhook, "http://127.0.0.1:"), reqs[0].Webhook)
			require.Equal(t, []string{"start processing", "completed succeeded"}, srv.Webhooks(),
				"the end is learnt from the webhook: Cog serves no GET /predictions/{id}")
		})
	}
}

func TestAsyncModeNeedsAWebhookListener(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*engines.EngineConfig)
		want string
	}{
		{"async without a listener", func(e *engines.EngineConfig) { e.WebhookListen = "" },
			"mode async needs the service's address for webhooks"},
		{"every interface, no URL", func(e *engines.EngineConfig) { e.WebhookListen = "0.0.0.0:5001" },
			"set webhook_url"},
		{"not an address", func(e *engines.EngineConfig) { e.WebhookListen = "5001" }, "not a host:port"},
		{"a URL that is not http", func(e *engines.EngineConfig) { e.WebhookURL = "ftp://worker:5001" },
			"not an http(s) address"},
		{"sync with a listener", func(e *engines.EngineConfig) { e.Mode = "sync" }, "for mode async"},
		{"another engine's port", func(e *engines.EngineConfig) { e.WebhookListen = "127.0.0.1:5001" },
			"is engine a_first's too"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := example(t, "http://127.0.0.1:5000", func(c *engines.Config) {
				e := c.Engines["sdxl"]
				tc.edit(&e)
				c.Engines["sdxl"] = e
				c.Engines["a_first"] = engines.EngineConfig{Protocol: "cog", URL: "http://127.0.0.1:5002",
					WebhookListen: "127.0.0.1:5001"}
			})
			r, logs := assemble(t, cfg, clients(false))
			refused := logs.FilterMessage("engine refused: its configuration does not hold")
			require.Equal(t, 1, refused.Len())
			require.Contains(t, refused.All()[0].ContextMap()["error"], tc.want)
			_, err := r.Lookup("image.generate_sdxl")
			require.Equal(t, apierr.TaskNotFound, apierr.As(err).Code)
		})
	}
	t.Run("no mode and no listener is sync", func(t *testing.T) {
		srv := fake(t, cogtest.Options{})
		cfg := example(t, srv.URL, func(c *engines.Config) {
			c.Engines["sdxl"] = engines.EngineConfig{Protocol: "cog", URL: srv.URL}
		})
		r, logs := assemble(t, cfg, clients(false))
		require.Zero(t, logs.FilterLevelExact(zap.ErrorLevel).Len(), logs.All())
		d, err := r.Lookup("image.generate_sdxl")
		require.NoError(t, err)
		_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
		require.NoError(t, err)
		require.False(t, srv.Requests()[0].Async)
	})
}

func TestEngineFailuresBecomeTheSpecsCodes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		o         cogtest.Options
		busy      bool
		code      apierr.Code
		temporary bool
	}{
		{"model error", cogtest.Options{Fail: "CUDA out of memory"}, true, apierr.ProcessingFailed, false},
		{"safety checker", cogtest.Options{Fail: "NSFW content detected. Try again."}, true, apierr.ContentRefused,
			false},
		{"busy past the engine's wait, task allows capacity_busy", cogtest.Options{Busy: 100}, true,
			apierr.CapacityBusy, true},
		{"busy past the engine's wait, task does not", cogtest.Options{Busy: 100}, false, apierr.ProcessingFailed,
			true},
		{"loading past the engine's setup allowance", cogtest.Options{Setup: time.Hour}, true, apierr.CapacityBusy,
			true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fake(t, tc.o)
			cfg := example(t, srv.URL, func(c *engines.Config) {
				c.Tasks[0].CapacityBusy = tc.busy
				e := c.Engines["sdxl"]
				e.Wait, e.Setup = "1s", "1500ms"
				c.Engines["sdxl"] = e
			})
			r, _ := assemble(t, cfg, clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
			var se *tasks.StepError
			require.ErrorAs(t, err, &se)
			require.Equal(t, string(tc.code), se.Code)
			require.Equal(t, tc.temporary, se.Temporary)
			require.NotContains(t, se.Message, "CUDA", "the engine's own words stay in the logs")
		})
	}
}

func TestCancelledStepCancelsItsPrediction(t *testing.T) {
	for _, m := range []string{"async", "sync"} {
		t.Run(m, func(t *testing.T) {
			srv := fake(t, cogtest.Options{Run: time.Minute})
			cfg := example(t, srv.URL, func(c *engines.Config) {
				c.Engines["sdxl"] = mode(c.Engines["sdxl"], m)
			})
			r, _ := assemble(t, cfg, clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			in, err := d.Validate([]byte(`{"prompt":"a shirt"}`))
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			ctx, note := tasks.WithStepNotes(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := d.Runner.Step(ctx, in, 0)
				done <- err
			}()
			require.Eventually(t, func() bool { return srv.Running() == 1 }, 5*time.Second, 10*time.Millisecond)
			require.Eventually(t, func() bool { return strings.Contains(note(), "engine sdxl") },
				5*time.Second, 10*time.Millisecond)
			cancel()
			require.ErrorIs(t, <-done, context.Canceled)
			require.Eventually(t, func() bool { return len(srv.Cancelled()) == 1 }, 5*time.Second,
				10*time.Millisecond)
			require.Eventually(t, func() bool { return srv.Running() == 0 }, 5*time.Second, 10*time.Millisecond)
		})
	}
}

// TestConfiguredTasksPassTheConformanceSuite runs every check a built-in
// task passes on the declared task and the routed one, their examples made
// by the Cog server.
func TestConfiguredTasksPassTheConformanceSuite(t *testing.T) {
	srv := fake(t, cogtest.Options{Sized: true})
	r, logs := assemble(t, example(t, srv.URL, nil), clients(false))
	require.Zero(t, logs.FilterLevelExact(zap.ErrorLevel).Len(), logs.All())
	for _, name := range []string{"image.generate_sdxl", "pattern.generate"} {
		d, err := r.Lookup(name)
		require.NoError(t, err)
		require.Implements(t, (*tasks.EngineRunner)(nil), d.Runner)
		require.False(t, d.ExampleOutputsServed(), "the catalogue never runs a prediction")
		t.Run(name, func(t *testing.T) { taskstest.CheckTask(t, d) })
	}
}

func TestATaskThatFailsItsChecksIsRefusedAndNotServed(t *testing.T) {
	srv := fake(t, cogtest.Options{})
	for _, tc := range []struct {
		name string
		edit func(*engines.TaskConfig)
		want string
	}{
		{"open schema", func(tc *engines.TaskConfig) { tc.InputSchema["additionalProperties"] = true },
			"additionalProperties false"},
		{"bad example", func(tc *engines.TaskConfig) { tc.Examples[0].Input = map[string]any{"seed": 1} },
			"not a valid input"},
		{"unknown engine", func(tc *engines.TaskConfig) { tc.Engine = "nope" }, "no usable engine"},
		{"unknown category", func(tc *engines.TaskConfig) { tc.Category = "magic" }, "unknown category"},
		{"mapping reads a missing field", func(tc *engines.TaskConfig) { tc.Input["steps"] = "$steps" },
			"not a field of the input schema"},
		{"no docs", func(tc *engines.TaskConfig) { tc.Docs.Lead = "" }, "docs need"},
		{"a built-in's name", func(tc *engines.TaskConfig) { tc.Name = "image.resize" }, "registered twice"},
		{"free", func(tc *engines.TaskConfig) { tc.PricePerOutput = 0 }, "price_per_output must be at least 1"},
		{"a negative price", func(tc *engines.TaskConfig) { tc.PricePerOutput = -4 },
			"price_per_output must be at least 1"},
		{"a keyword with no documented code", func(tc *engines.TaskConfig) {
			prop(tc, "prompt")["format"] = "uri"
		}, `keyword "format" of prompt`},
		{"a bound on list items with no documented code", func(tc *engines.TaskConfig) {
			tc.InputSchema["properties"].(map[string]any)["tags"] = map[string]any{"type": "array",
				"items": map[string]any{"type": "string", "minLength": 2}}
		}, `keyword "minLength" of tags[]`},
		{"a top-level condition", func(tc *engines.TaskConfig) {
			tc.InputSchema["if"] = map[string]any{"required": []any{"seed"}}
		}, `keyword "if" at the top`},
		{"another dialect for the output", func(tc *engines.TaskConfig) {
			tc.OutputSchema = map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
		}, "output schema must be a draft 2020-12 schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := example(t, srv.URL, func(c *engines.Config) { tc.edit(&c.Tasks[0]) })
			r, logs := assemble(t, cfg, clients(false))
			refused := logs.FilterMessage("task refused: it does not pass the start-up checks and is not served")
			require.Equal(t, 1, refused.Len())
			require.Contains(t, refused.All()[0].ContextMap()["error"], tc.want)
			_, err := r.Lookup("image.generate_sdxl")
			require.Equal(t, apierr.TaskNotFound, apierr.As(err).Code)
			_, err = r.Lookup("image.resize")
			require.NoError(t, err, "the built-in tasks are served")
		})
	}
}

// prop is the schema of field of a declared task's input.
func prop(tc *engines.TaskConfig, field string) map[string]any {
	return tc.InputSchema["properties"].(map[string]any)[field].(map[string]any)
}

func TestABuiltInTaskSwitchesToAnEngineAndBackByConfigurationAlone(t *testing.T) {
	srv := fake(t, cogtest.Options{Sized: true})
	body := `{"kind":"stripes","colors":["#1F3A5F","#F2C14E"],"seed":3,"resolution":"512"}`
	routed, _ := assemble(t, example(t, srv.URL, nil), clients(false))
	d, err := routed.Lookup("pattern.generate")
	require.NoError(t, err)
	out, err := step(t, d, body, 0)
	require.NoError(t, err)
	require.Equal(t, "sdxl", out.Engine)
	require.Equal(t, 512, out.Meta["width"], "the size of the image the model made")
	require.Len(t, srv.Inputs(), 1)

	back, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) { c.Routes = nil }), clients(false))
	d, err = back.Lookup("pattern.generate")
	require.NoError(t, err)
	out, err = step(t, d, body, 0)
	require.NoError(t, err)
	require.Empty(t, out.Engine, "the built-in engine")
	require.EqualValues(t, 512, out.Meta["width"])
	require.Len(t, srv.Inputs(), 1, "the model was not asked")

	none, _ := assemble(t, nil, clients(false))
	for _, d := range none.Runnable() {
		require.NotImplements(t, (*tasks.EngineRunner)(nil), d.Runner, d.Name)
	}
	require.Equal(t, len(all.Registry().Runnable()), len(none.Runnable()))
}

func TestJSONConfigurationReadsLikeYAML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "engines.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"engines":{"m":{"protocol":"cog","url":"http://gpu:5000"}},`+
		`"routes":{"image.resize":{"engine":"m","input":{"image":"$images"}}}}`), 0o600))
	cfg, err := engines.Load(path)
	require.NoError(t, err)
	require.Equal(t, "http://gpu:5000", cfg.Engines["m"].URL)
	require.Equal(t, "m", cfg.Routes["image.resize"].Engine)
	require.NoError(t, os.WriteFile(path, []byte(`{"engine":{}}`), 0o600))
	_, err = engines.Load(path)
	require.Error(t, err, "an unknown key is a mistake, not a silent default")
}

// truncatedPNG is a 512 × 512 PNG cut after its first 200 bytes: its
// header reads, its pixels do not.
func truncatedPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 512, 512))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()[:200]
}
