package engines_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
)

func TestOutputURLsOnOtherHostsKeepTheAddressRules(t *testing.T) {
	files := fake(t, cogtest.Options{AsURL: true}) // another loopback server: not the engine
	srv := fake(t, cogtest.Options{OutputURL: files.URL + "/files/x"})
	r, _ := assemble(t, example(t, srv.URL, nil), clients(false))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, string(apierr.ProcessingFailed), se.Code)
	require.False(t, se.Temporary)
	require.True(t, errors.Is(err, outbound.ErrNotHTTPS) || errors.Is(err, outbound.ErrNotPublic), err)
}

func TestRedirectsAwayFromTheEngineAreNotFollowed(t *testing.T) {
	var hits atomic.Int32 // requests that reached the other origin
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"succeeded","output":"data:image/png;base64,AAAA"}`))
	}))
	t.Cleanup(elsewhere.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	for _, tc := range []struct {
		name   string
		engine string
	}{
		{"the prediction request", redirector.URL},
		{"an output URL on the engine", fake(t, cogtest.Options{AsURL: true, Redirect: elsewhere.URL + "/x"}).URL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []string{"sync", "async"} {
				r, _ := assemble(t, example(t, tc.engine, func(c *engines.Config) {
					c.Engines["sdxl"] = mode(c.Engines["sdxl"], m)
				}), clients(true))
				d, err := r.Lookup("image.generate_sdxl")
				require.NoError(t, err)
				_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
				var se *tasks.StepError
				require.ErrorAs(t, err, &se, m)
				require.Equal(t, string(apierr.ProcessingFailed), se.Code, m)
				require.False(t, se.Temporary, "%s: the configuration, not the moment, is wrong", m)
				require.ErrorIs(t, err, engines.ErrRedirectOffEngine, m)
			}
			require.Zero(t, hits.Load(), "nothing reached the other origin, even with private addresses allowed")
		})
	}
}

func TestOutputsOfTheWrongTypeOrSizeAreNotDelivered(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		max  int64
	}{
		{"not an image", []byte("<html>hello</html>"), 0},
		{"over max_bytes", make([]byte, 4096), 1024},
		{"a PNG whose pixels do not decode", truncatedPNG(t), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fake(t, cogtest.Options{Output: func(map[string]any) []byte { return tc.data }})
			r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				e := c.Engines["sdxl"]
				e.MaxBytes = tc.max
				c.Engines["sdxl"] = e
			}), clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
			var se *tasks.StepError
			require.ErrorAs(t, err, &se)
			require.Equal(t, string(apierr.ProcessingFailed), se.Code)
		})
	}
}
