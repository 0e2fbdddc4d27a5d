package api

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/all"
)

const testBase = "https://api.example.test"

// catalogueRouter is the service router without a database: catalogue reads
// need none unless a key is sent.
func catalogueRouter() *gin.Engine {
	return NewRouter(Deps{BaseURL: testBase, Catalogue: servedCatalogue()})
}

// servedCatalogue is the catalogue the binary serves: every family of
// tasks/all.
func servedCatalogue() *catalog.Catalogue { return catalog.New(all.Registry()) }

// servedTasks is the registry catalogueRouter serves: every family.
func servedTasks() *tasks.Registry { return all.Registry() }

type reply struct {
	code int
	head http.Header
	body []byte
}

func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), string(r.body))
	return m
}

func (r reply) errCode(t *testing.T) string {
	t.Helper()
	e, _ := r.json(t)["error"].(map[string]any)
	require.NotNil(t, e, string(r.body))
	return e["code"].(string)
}

func call(h http.Handler, method, path, body string, headers ...string) reply {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return reply{w.Code, w.Header(), w.Body.Bytes()}
}

func TestCatalogueTaskListPages(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	var names []string
	path := "/v1/tasks?limit=1"
	for range 100 {
		res := call(r, "GET", path, "")
		require.Equal(t, 200, res.code, string(res.body))
		page := res.json(t)
		for _, it := range page["items"].([]any) {
			task := it.(map[string]any)
			names = append(names, task["name"].(string))
			for _, k := range []string{"inputSchema", "outputSchema"} {
				raw, err := json.Marshal(task[k])
				require.NoError(t, err)
				_, err = tasks.CompileSchema(task["name"].(string)+"/"+k, raw)
				require.NoError(t, err, "served %s of %s compiles as draft 2020-12", k, task["name"])
			}
		}
		if page["has_more"] == false {
			require.NotContains(t, page, "next_cursor")
			break
		}
		path = "/v1/tasks?limit=1&cursor=" + page["next_cursor"].(string)
	}
	var want []string
	for _, d := range servedTasks().Runnable() {
		want = append(want, d.Name)
	}
	require.Equal(t, want, names, "every runnable task, in catalogue order")
	all := call(r, "GET", "/v1/tasks?limit=100", "").json(t)
	require.Len(t, all["items"], len(want))
	require.Equal(t, false, all["has_more"])
	for _, bad := range []string{"/v1/tasks?limit=0", "/v1/tasks?limit=101", "/v1/tasks?limit=x", "/v1/tasks?cursor=zzz"} {
		res := call(r, "GET", bad, "")
		require.Equal(t, 422, res.code, bad)
		require.Equal(t, "invalid_request", res.errCode(t))
	}
}

func TestCatalogueTaskRead(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	cur := call(r, "GET", "/v1/tasks/pattern.generate", "")
	require.Equal(t, 200, cur.code)
	task := cur.json(t)
	require.NotContains(t, task, "status")
	require.Equal(t, "design_generation", task["category"])
	require.Contains(t, task["docs"].(map[string]any)["errors"], "too_many_colours")

	dep := call(r, "GET", "/v1/tasks/pattern.stripes", "").json(t)
	require.Equal(t, "deprecated", dep["status"])
	require.Equal(t, "pattern.generate", dep["replaced_by"])

	for _, p := range []string{"", "/openapi.json", "/llms.txt", "/examples"} {
		gone := call(r, "GET", "/v1/tasks/pattern.legacy"+p, "")
		require.Equal(t, 410, gone.code, p)
		require.Equal(t, "task_removed", gone.errCode(t))
		require.Equal(t, "not_found", gone.head.Get("X-Service-Error-Type"))
		missing := call(r, "GET", "/v1/tasks/no.such"+p, "")
		require.Equal(t, 404, missing.code, p)
		require.Equal(t, "task_not_found", missing.errCode(t))
	}
	// A key from a browser is refused even on a keyless read.
	res := call(
		r,
		"GET",
		"/v1/tasks",
		"",
		"Authorization",
		"Key "+models.KeyPrefix+"abc",
		"Origin",
		"https://example.com",
	)
	require.Equal(t, 403, res.code)
	require.Equal(t, "api_key_not_allowed_here", res.errCode(t))
}

func TestCatalogueLLMsText(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	idx := call(r, "GET", "/v1/tasks/llms.txt", "")
	require.Equal(t, 200, idx.code)
	require.True(t, strings.HasPrefix(idx.head.Get("Content-Type"), "text/plain"))
	for _, d := range servedTasks().Runnable() {
		require.Contains(t, string(idx.body), testBase+"/v1/tasks/"+d.Name+"/llms.txt")
		page := call(r, "GET", "/v1/tasks/"+d.Name+"/llms.txt", "")
		require.Equal(t, 200, page.code)
		require.True(t, strings.HasPrefix(page.head.Get("Content-Type"), "text/plain"))
		require.Contains(t, string(page.body), "# "+d.Name)
		require.Contains(t, string(page.body), string(d.Examples[0].Input))
	}
	require.NotContains(t, string(idx.body), "pattern.legacy")
	gen := call(r, "GET", "/v1/tasks/pattern.generate/llms.txt", "")
	require.Contains(t, string(gen.body), "only for kind stripes")
	require.Contains(t, string(gen.body), "resolution 2048: 4 service_credits per tile")
	require.Contains(
		t,
		string(gen.body),
		"one of stripes, checks, dots, chevron, waves, diamonds, houndstooth, plaid, gingham, buffalo_check, windowpane; "+
			"default",
	)
	require.Contains(t, string(gen.body), "vocabulary pattern_kind; its aliases accepted")
}

func TestCatalogueExamples(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	for _, d := range servedTasks().Runnable() {
		res := call(r, "GET", "/v1/tasks/"+d.Name+"/examples", "")
		require.Equal(t, 200, res.code)
		items := res.json(t)["items"].([]any)
		require.Len(t, items, len(d.Examples))
		for _, it := range items {
			ex := it.(map[string]any)
			req := ex["request"].(map[string]any)
			body, _ := json.Marshal(req["body"])
			_, err := d.Validate(body)
			require.NoError(t, err)
			files := ex["files_delivered"].([]any)
			require.NotEmpty(t, files)
			for _, f := range files {
				file := f.(map[string]any)
				url := file["url"].(string)
				require.True(t, strings.HasPrefix(url, testBase+"/v1/tasks/"+d.Name+"/examples/"))
				got := call(r, "GET", strings.TrimPrefix(url, testBase), "")
				require.Equal(t, 200, got.code)
				require.Equal(t, file["media_type"], got.head.Get("Content-Type"))
				require.Len(t, got.body, int(file["bytes"].(float64)))
				if file["media_type"] == "image/png" {
					_, err := png.Decode(bytes.NewReader(got.body))
					require.NoError(t, err)
				}
			}
		}
	}
	res := call(r, "GET", "/v1/tasks/pattern.generate/examples/houndstooth/files/9", "")
	require.Equal(t, 404, res.code)
	require.Equal(t, "not_found", res.errCode(t))
}

func TestCatalogueVocabConceptsRecipes(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	tests := []struct {
		list, one, missing string
		count              int
	}{
		{"/v1/vocab", "/v1/vocab/resolution", "/v1/vocab/nope", len(servedCatalogue().Vocabularies())},
		{"/v1/concepts", "/v1/concepts/seamless_tile", "/v1/concepts/nope", len(servedCatalogue().Concepts())},
		{"/v1/recipes", "", "", len(servedCatalogue().Recipes())},
	}
	for _, tc := range tests {
		res := call(r, "GET", tc.list, "")
		require.Equal(t, 200, res.code)
		require.Len(t, res.json(t)["items"], tc.count)
		if tc.one == "" {
			continue
		}
		require.Equal(t, 200, call(r, "GET", tc.one, "").code)
		miss := call(r, "GET", tc.missing, "")
		require.Equal(t, 404, miss.code)
		require.Equal(t, "not_found", miss.errCode(t))
	}
	v := call(r, "GET", "/v1/vocab/webhook_event", "").json(t)
	var events []string
	for _, x := range v["values"].([]any) {
		events = append(events, x.(map[string]any)["value"].(string))
	}
	require.Equal(
		t,
		[]string{"job.started", "job.progress", "job.succeeded", "job.failed", "job.cancelled", "spend.threshold",
			"batch.completed", "ping"},
		events,
	)
	res := call(r, "GET", "/v1/vocab/resolution", "").json(t)
	require.Equal(t, "1024", res["default"])
	require.NotEmpty(t, res["used_in"])
	c := call(r, "GET", "/v1/concepts/seed", "").json(t)
	for _, k := range []string{"name", "short", "long", "related", "produced_by", "used_by"} {
		require.Contains(t, c, k)
	}
}

func TestCatalogueErrors(t *testing.T) {
	t.Parallel()
	res := call(catalogueRouter(), "GET", "/v1/errors", "")
	require.Equal(t, 200, res.code)
	items := res.json(t)["items"].([]any)
	require.Len(t, items, len(apierr.Entries()))
	byCode := map[string]map[string]any{}
	for _, it := range items {
		e := it.(map[string]any)
		for _, k := range []string{"code", "type", "status", "retryable", "meaning", "fix", "docs"} {
			require.Contains(t, e, k)
		}
		byCode[e["code"].(string)] = e
	}
	require.Equal(t, "warning", byCode["colour_adjusted"]["type"])
	require.Equal(t, "warning", byCode["output_not_produced"]["type"])
	require.Nil(t, byCode["output_not_produced"]["status"], "warnings have no HTTP status")
	require.Equal(t, float64(410), byCode["task_removed"]["status"])
	require.Equal(t, true, byCode["rate_limited"]["retryable"])
	require.Equal(t, false, byCode["result_not_ready"]["retryable"], "the spec does not mark it retryable")
}

func TestCataloguePricing(t *testing.T) {
	t.Parallel()
	res := call(catalogueRouter(), "GET", "/v1/pricing", "")
	require.Equal(t, 200, res.code)
	items := res.json(t)["items"].([]any)
	require.Len(t, items, len(servedTasks().Runnable()))
	for _, it := range items {
		p := it.(map[string]any)
		d, err := servedTasks().Lookup(p["task"].(string))
		require.NoError(t, err)
		require.Equal(t, d.Pricing.CreditType, p["credit_type"])
		require.Contains(t, contract.CreditTypes, p["credit_type"])
		in, err := d.Validate(d.Examples[0].Input)
		require.NoError(t, err)
		if p["depends_on"] == nil {
			require.Equal(t, float64(d.PricePerOutput(in)), p["per_output"])
			continue
		}
		for _, op := range p["prices"].([]any) {
			o := op.(map[string]any)
			in.Fields[p["depends_on"].(string)] = o["value"]
			in, err := d.Input(in.Fields)
			require.NoError(t, err)
			credits, _ := d.Estimate(in)
			require.Equal(t, int64(o["credits"].(float64))*int64(d.Runner.Plan(in).Steps), credits)
		}
	}
}

func TestCatalogueMeta(t *testing.T) {
	t.Parallel()
	res := call(catalogueRouter(), "GET", "/v1/meta", "")
	require.Equal(t, 200, res.code)
	m := res.json(t)
	lim := m["limits"].(map[string]any)
	want := map[string][]string{
		"request":         {"max_body_bytes"},
		"prefer_wait":     {"max_seconds"},
		"start_timeout":   {"min_seconds", "max_seconds"},
		"upload":          {"max_bytes", "media_types"},
		"idempotency_key": {"ttl_seconds"},
		"url_fetch":       {"connect_timeout_seconds", "read_timeout_seconds", "max_bytes", "max_redirects"},
		// What one account may hold open or registered (issue 26).
		"event_streams":     {"max_per_key", "max_per_account", "max_seconds"},
		"api_keys":          {"max_per_account"},
		"webhook_endpoints": {"max_per_account"},
		// POST /v1/batches (issue 33).
		"batches": {"max_items", "max_body_bytes"},
	}
	require.Len(t, lim, len(want))
	for group, keys := range want {
		g := lim[group].(map[string]any)
		require.Len(t, g, len(keys), group)
		for _, k := range keys {
			require.Contains(t, g, k, group)
		}
	}
	require.Equal(
		t,
		float64(contract.DefaultLimits().Request.MaxBodyBytes),
		lim["request"].(map[string]any)["max_body_bytes"],
	)
	require.Equal(
		t,
		float64(contract.DefaultLimits().EventStreams.MaxPerKey),
		lim["event_streams"].(map[string]any)["max_per_key"],
	)
	require.Equal(
		t,
		float64(contract.DefaultLimits().APIKeys.MaxPerAccount),
		lim["api_keys"].(map[string]any)["max_per_account"],
	)
	wh := m["webhook"].(map[string]any)
	require.Greater(t, wh["max_attempts"], float64(0))
	require.Greater(t, wh["signature"].(map[string]any)["timestamp_window_seconds"], float64(0))
	require.Equal(t, contract.CurrentVersion, m["current_version"])
	require.Contains(t, m["versions"], contract.FirstVersion)
}
