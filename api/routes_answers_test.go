package api

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/testenv"
)

// probe is one call of a route and the status it must answer.
type probe struct {
	row     string // the table row, "METHOD /path/{param}"
	path    string // the request path and query
	body    string
	headers []string
	status  int
	// doc is the documented path when it is a task's own, not the row's.
	doc string
	// within ends the request after this long (a stream that does not end
	// by itself).
	within time.Duration
}

// routesEnv is a unit router (no Temporal) with one account holding credits,
// files, and jobs in every state.
type routesEnv struct {
	*fileEnv
	doc                           *openapi3.T
	queued, running, done, failed string
	art, upload                   string
	// engineInput is the path of an engine input URL that holds.
	engineInput string
}

// curated is the curated library drawn once for the package's tests: each
// routes environment writes it into its own database and bucket.
var curated records.Library

func newRoutesEnv(t *testing.T) *routesEnv {
	e := &routesEnv{doc: everyRouteDoc(t, true)}
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	e.fileEnv = newFileEnv(t, testenv.Postgres, func(d *Deps) {
		d.Metrics, d.Signer = middleware.NewHTTPMetrics(prometheus.NewRegistry()), signer.New(key)
		d.BaseURL = "https://api.example.test"
	})
	ctx, now := context.Background(), time.Now().UTC()
	_, err = models.Grant(ctx, e.db, e.user.ID, contract.CreditService, 500, new(now.Add(24*time.Hour)), "test")
	require.NoError(t, err)
	_, err = models.Grant(ctx, e.db, e.user.ID, contract.CreditService, 100, nil, "test")
	require.NoError(t, err)
	// The examples of record and photoshoot tasks name the curated and
	// photoshoots libraries, which an estimate reads as a submit does.
	require.NoError(t, curated.Seed(ctx, e.db, e.fileEnv.bucket))
	require.NoError(t, photoshoot.SeedLibrary(ctx, e.db, e.fileEnv.bucket))
	require.NoError(t, e.fileEnv.bucket.WriteAll(ctx, contract.EngineInputPrefix+"probe", pngBytes(t), nil))
	grant, err := json.Marshal(contract.EngineInput{Key: contract.EngineInputPrefix + "probe", MediaType: "image/png",
		Expires: now.Add(time.Hour).Unix()})
	require.NoError(t, err)
	e.engineInput = contract.EngineInputPath + signer.New(key).SignJWS(contract.EngineInputType, grant).Compact()

	row := func(lifecycle string, outcome *string) *models.Job {
		j := &models.Job{
			ID:          models.NewID("j_"),
			UserID:      e.user.ID,
			APIKeyID:    e.keyID,
			Task:        "pattern.generate",
			Input:       "{}",
			Lifecycle:   lifecycle,
			Outcome:     outcome,
			CreditType:  contract.CreditService,
			HeldCredits: 20,
			CreatedAt:   now.Add(-time.Minute),
		}
		if lifecycle != contract.LifecycleQueued {
			j.StartedAt, j.ProgressTotal, j.ProgressDone, j.Phase = new(
				now.Add(-50*time.Second),
			), new(
				2,
			), 1, "rendering"
		}
		if outcome != nil {
			j.EndedAt, j.SettledAt, j.ProgressDone, j.ChargedCredits = new(now), new(now), 2, 20
		}
		return j
	}
	succeeded, failed := contract.OutcomeSucceeded, contract.OutcomeFailed
	jobs := []*models.Job{row(contract.LifecycleQueued, nil), row(contract.LifecycleRunning, nil),
		row(contract.LifecycleTerminal, &succeeded), row(contract.LifecycleTerminal, &failed)}
	summary, _ := json.Marshal(contract.Summary{Requested: 3, Delivered: 2, Warnings: []contract.Warning{
		{Code: string(apierr.OutputNotProduced), Message: "One tile was not produced."}}})
	jobs[2].Summary = new(string(summary))
	fault, _ := json.Marshal(apierr.New(apierr.ProcessingFailed, "").WithJob(jobs[3].ID))
	jobs[3].Error = new(string(fault))
	for _, j := range jobs {
		require.NoError(t, e.db.Create(j).Error)
	}
	e.queued, e.running, e.done, e.failed = jobs[0].ID, jobs[1].ID, jobs[2].ID, jobs[3].ID
	e.art = e.addOutputs(e.user.ID, e.done, 2, now)[0]
	up := e.fileEnv.upload(e.key, part{"file", "a.png", string(pngBytes(t))})
	require.Equal(t, http.StatusCreated, up.code, "%s", up.body)
	e.upload = up.obj(t)["file"].(string)
	return e
}

// check makes the call and validates its answer against the document.
func (e *routesEnv) check(t *testing.T, p probe) answer {
	t.Helper()
	method, rowPath, _ := strings.Cut(p.row, " ")
	req := request(method, p.path, strings.NewReader(p.body), p.headers...)
	if p.within > 0 {
		ctx, cancel := context.WithTimeout(req.Context(), p.within)
		defer cancel()
		req = req.WithContext(ctx)
	}
	res := serve(e.r, req)
	require.Equal(t, p.status, res.code, "%s %s: %s", method, p.path, res.body)
	docPath := p.doc
	if docPath == "" {
		docPath = rowPath
	}
	openapicheck.CheckAnswer(
		t,
		e.doc,
		method,
		docPath,
		request(method, p.path, nil, p.headers...),
		[]byte(p.body),
		res.code,
		res.head,
		res.body,
	)
	return res
}

// needsTemporal are the table rows whose success answers need a Temporal
// server; the stack tests check those (TestStackAnswersAsDocumented).
var needsTemporal = map[string]bool{
	"POST /v1/tasks/{name}":        true,
	"PUT /v1/jobs/{job_id}/cancel": true,
	"GET /readyz":                  true,
	// A batch's jobs start on Temporal: e2e's TestBatchOfTwoHundred.
	"POST /v1/batches":           true,
	"GET /v1/batches/{batch_id}": true,
}

func TestRoutesAnswerAsDocumented(t *testing.T) {
	t.Parallel()
	e := newRoutesEnv(t)
	key := keyed(e.key)
	asJSON := with(key, "Content-Type", "application/json")
	multipart, ct := multipartBody(t, part{"file", "b.png", string(pngBytes(t))}, part{"external_id", "", "SKU-1"})
	upload := e.fileEnv.upload(e.key, part{"file", "c.png", string(pngBytes(t))}).obj(t)
	blob := strings.TrimPrefix(upload["url"].(string), "https://api.example.test")
	readOnly, _ := e.newKey(e.user.ID, []string{models.ScopeFilesRead}, nil)
	hook, err := models.ExpectEngineCompletion(t.Context(), e.db, "pred_1")
	require.NoError(t, err)
	hook = "/engines/predictions/pred_1/" + hook
	noKeyJSON := []string{"Content-Type", "application/json"}

	probes := []probe{
		{row: "POST /engines/predictions/{prediction_id}/{token}", path: hook, body: `{"status":"succeeded"}`,
			headers: noKeyJSON, status: 204},
		{row: "POST /engines/predictions/{prediction_id}/{token}", path: hook + "0", body: `{"status":"failed"}`,
			headers: noKeyJSON, status: 404},
		{row: "POST /engines/predictions/{prediction_id}/{token}", path: hook, body: `[]`, headers: noKeyJSON,
			status: 422},
		{row: "POST /engines/predictions/{prediction_id}/{token}", path: hook, body: `{}`, status: 415},
		{row: "GET /healthz", path: "/healthz", status: 200},
		{row: "GET /readyz", path: "/readyz", status: 503},
		{row: "GET /metrics", path: "/metrics", status: 200},
		{row: "GET /files/{blob}", path: blob, status: 200},
		{row: "GET /files/{blob}", path: "/files/nothing.png", status: 404},
		{row: "GET /files/engine/{grant}", path: e.engineInput, status: 200},
		{row: "GET /files/engine/{grant}", path: "/files/engine/nothing", status: 404},
		{row: "GET /.well-known/jwks.json", path: "/.well-known/jwks.json", status: 200},

		{row: "GET /v1/tasks", path: "/v1/tasks", status: 200},
		{row: "GET /v1/tasks", path: "/v1/tasks?limit=1", status: 200},
		{row: "GET /v1/tasks", path: "/v1/tasks?limit=0", status: 422},
		{row: "GET /v1/tasks/llms.txt", path: "/v1/tasks/llms.txt", status: 200},
		{row: "GET /v1/tasks/{name}", path: "/v1/tasks/pattern.legacy", status: 410},
		{row: "GET /v1/tasks/{name}", path: "/v1/tasks/no.such", status: 404},
		{row: "GET /v1/tasks/{name}/openapi.json", path: "/v1/tasks/pattern.legacy/openapi.json", status: 410},
		{
			row:    "GET /v1/tasks/{name}/examples/{example}/files/{index}",
			path:   "/v1/tasks/pattern.generate/examples/none/files/0",
			status: 404,
		},
		{
			row:    "GET /v1/tasks/{name}/examples/{example}/sent/{index}",
			path:   "/v1/tasks/pattern.generate/examples/none/sent/0",
			status: 404,
		},
		{row: "GET /v1/openapi.json", path: "/v1/openapi.json", status: 200},
		{row: "GET /v1/panel/openapi.json", path: "/v1/panel/openapi.json", status: 200},
		{row: "GET /v1/vocab", path: "/v1/vocab", status: 200},
		{row: "GET /v1/vocab/{name}", path: "/v1/vocab/nothing", status: 404},
		{row: "GET /v1/concepts", path: "/v1/concepts", status: 200},
		{row: "GET /v1/concepts/{name}", path: "/v1/concepts/nothing", status: 404},
		{row: "GET /v1/recipes", path: "/v1/recipes", status: 200},
		{row: "GET /v1/errors", path: "/v1/errors?limit=100", status: 200},
		{row: "GET /v1/errors", path: "/v1/errors?limit=2", status: 200},
		{row: "GET /v1/pricing", path: "/v1/pricing", status: 200},
		{row: "GET /v1/meta", path: "/v1/meta", status: 200},
		{row: "GET /v1/changelog", path: "/v1/changelog", status: 200},
		{row: "GET /v1/changelog", path: "/v1/changelog?limit=1", status: 200},
		{row: "GET /v1/changelog", path: "/v1/changelog?cursor=zz", status: 422},
		{row: "GET /v1/changelog.atom", path: "/v1/changelog.atom", status: 200},
		{row: "GET /v1/tasks/{name}/llms.txt", path: "/v1/tasks/pattern.legacy/llms.txt", status: 410},
		{row: "GET /v1/tasks/{name}/examples", path: "/v1/tasks/pattern.legacy/examples", status: 410},
		{
			row:     "POST /v1/tasks/{name}/estimate",
			path:    "/v1/tasks/pattern.legacy/estimate",
			body:    `{}`,
			headers: asJSON,
			status:  410,
		},

		{
			row:     "POST /v1/tasks/{name}",
			path:    "/v1/tasks/pattern.generate",
			body:    `{"colors":"red"}`,
			headers: asJSON,
			status:  422,
		},
		{
			row:     "POST /v1/tasks/{name}",
			path:    "/v1/tasks/pattern.generate",
			body:    `{"kind":"stripes","colors":["#112233","#DDEEFF"]}`,
			headers: with(asJSON, "X-Service-Max-Credits", "0"),
			status:  402,
		},
		{row: "POST /v1/tasks/{name}", path: "/v1/tasks/no.such", body: `{}`, headers: asJSON, status: 404},
		{row: "POST /v1/tasks/{name}", path: "/v1/tasks/pattern.legacy", body: `{}`, headers: asJSON, status: 410},
		{
			row:     "POST /v1/tasks/{name}",
			path:    "/v1/tasks/pattern.generate",
			body:    `{}`,
			headers: []string{"Content-Type", "application/json"},
			status:  401,
		},
		{
			row:     "POST /v1/tasks/{name}/estimate",
			path:    "/v1/tasks/pattern.generate/estimate",
			body:    `{}`,
			headers: with(key, "Content-Type", "text/plain"),
			status:  415,
		},

		{
			row:     "POST /v1/files",
			path:    "/v1/files",
			body:    multipart.String(),
			headers: with(key, "Content-Type", ct),
			status:  201,
		},
		{
			row:     "POST /v1/files",
			path:    "/v1/files",
			body:    `{"url":"https://1.1.1.1/shoe.png","external_id":"SKU-2"}`,
			headers: asJSON,
			status:  201,
		},
		{
			row:     "POST /v1/files",
			path:    "/v1/files",
			body:    `{"url":"http://1.1.1.1/shoe.png"}`,
			headers: asJSON,
			status:  422,
		},
		{
			row:     "POST /v1/files",
			path:    "/v1/files",
			body:    `{}`,
			headers: with(keyed(readOnly), "Content-Type", "application/json"),
			status:  403,
		},
		{row: "GET /v1/files/{ref}", path: "/v1/files/" + e.upload, headers: key, status: 200},
		{row: "GET /v1/files/{ref}", path: "/v1/files/art:" + e.art, headers: key, status: 200},
		{row: "GET /v1/files/{ref}", path: "/v1/files/file:nope", headers: key, status: 404},
		{row: "DELETE /v1/files/{ref}", path: "/v1/files/" + e.upload, headers: key, status: 422},
		{row: "DELETE /v1/files/{ref}", path: "/v1/files/art:" + e.art, headers: key, status: 200},
		{row: "DELETE /v1/files/{ref}", path: "/v1/files/art:" + e.art, headers: key, status: 404},
		{row: "GET /v1/refs/{kind}", path: "/v1/refs/art", headers: key, status: 200},
		{row: "GET /v1/refs/{kind}", path: "/v1/refs/file?limit=1&q=SKU", headers: key, status: 200},
		{row: "GET /v1/refs/{kind}", path: "/v1/refs/model", headers: key, status: 200},
		{row: "GET /v1/refs/{kind}", path: "/v1/refs/art?q=x", headers: key, status: 422},
		{row: "GET /v1/refs/{kind}", path: "/v1/refs/nothing", headers: key, status: 404},

		{row: "GET /v1/jobs", path: "/v1/jobs", headers: key, status: 200},
		{row: "GET /v1/jobs", path: "/v1/jobs?limit=2&api_key_id=" + e.keyID, headers: key, status: 200},
		{row: "GET /v1/jobs", path: "/v1/jobs?cursor=zz", headers: key, status: 422},
		{row: "GET /v1/jobs/{job_id}", path: "/v1/jobs/" + e.queued, headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}", path: "/v1/jobs/" + e.running, headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}", path: "/v1/jobs/" + e.done, headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}", path: "/v1/jobs/" + e.failed, headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}", path: "/v1/jobs/j_nothing", headers: key, status: 404},
		{row: "GET /v1/jobs/{job_id}/result", path: "/v1/jobs/" + e.done + "/result", headers: key, status: 200},
		{
			row:     "GET /v1/jobs/{job_id}/result",
			path:    "/v1/jobs/" + e.done + "/result?limit=1",
			headers: key,
			status:  200,
		},
		{row: "GET /v1/jobs/{job_id}/result", path: "/v1/jobs/" + e.queued + "/result", headers: key, status: 409},
		{row: "GET /v1/jobs/{job_id}/result", path: "/v1/jobs/" + e.failed + "/result", headers: key, status: 409},
		{row: "GET /v1/jobs/{job_id}/files", path: "/v1/jobs/" + e.done + "/files", headers: key, status: 200},
		{
			row:     "GET /v1/jobs/{job_id}/files",
			path:    "/v1/jobs/" + e.failed + "/files?limit=1",
			headers: key,
			status:  200,
		},
		{row: "GET /v1/jobs/{job_id}/files", path: "/v1/jobs/j_nope/files", headers: key, status: 404},
		{row: "GET /v1/jobs/{job_id}/files", path: "/v1/jobs/" + e.done + "/files?limit=0", headers: key, status: 422},
		{row: "GET /v1/jobs/{job_id}/manifest", path: "/v1/jobs/" + e.done + "/manifest", headers: key, status: 200},
		{
			row:     "GET /v1/jobs/{job_id}/manifest",
			path:    "/v1/jobs/" + e.failed + "/manifest",
			headers: with(key, "Accept", "application/jose"),
			status:  200,
		},
		{row: "GET /v1/jobs/{job_id}/manifest", path: "/v1/jobs/" + e.running + "/manifest", headers: key, status: 409},
		{row: "GET /v1/jobs/{job_id}/manifest", path: "/v1/jobs/j_nothing/manifest", headers: key, status: 404},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/" + e.done + "/events", headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/j_nothing/events", headers: key, status: 404},
		{row: "GET /v1/events", path: "/v1/events", headers: key, status: 200, within: 3 * time.Second},
		{row: "PUT /v1/jobs/{job_id}/cancel", path: "/v1/jobs/" + e.done + "/cancel", headers: key, status: 400},
		{row: "PUT /v1/jobs/{job_id}/cancel", path: "/v1/jobs/j_nothing/cancel", headers: key, status: 404},

		{row: "POST /v1/batches", path: "/v1/batches", body: `{"items":[]}`, headers: asJSON, status: 422},
		{
			row:     "POST /v1/batches",
			path:    "/v1/batches",
			body:    `{"items":[{"task":"pattern.generate","input":{"colors":"red"}},{"task":"no.such","input":{}}]}`,
			headers: asJSON,
			status:  422,
		},
		{row: "GET /v1/batches/{batch_id}", path: "/v1/batches/b_nothing", headers: key, status: 404},
		{row: "GET /v1/account/balance", path: "/v1/account/balance", headers: key, status: 200},
		{row: "GET /v1/account/balance", path: "/v1/account/balance", status: 401},
		{row: "GET /v1/account/limits", path: "/v1/account/limits", headers: key, status: 200},
		{row: "GET /v1/account/usage", path: "/v1/account/usage", headers: key, status: 200},
		{row: "GET /v1/account/usage", path: "/v1/account/usage?start=yesterday", headers: key, status: 422},
		{row: "GET /v1/account/requests", path: "/v1/account/requests", headers: key, status: 200},
		{
			row:     "GET /v1/account/requests",
			path:    "/v1/account/requests?limit=1&api_key_id=" + e.keyID,
			headers: key,
			status:  200,
		},
		{row: "GET /v1/account/metrics", path: "/v1/account/metrics?group_by=bad", headers: key, status: 422},
	}
	for _, g := range []string{"day", "task", "key", "error"} {
		probes = append(
			probes,
			probe{row: "GET /v1/account/metrics", path: "/v1/account/metrics?group_by=" + g, headers: key, status: 200},
		)
	}
	for _, v := range servedCatalogue().Vocabularies() {
		probes = append(probes, probe{row: "GET /v1/vocab/{name}", path: "/v1/vocab/" + v.Name, status: 200})
	}
	for _, c := range servedCatalogue().Concepts() {
		probes = append(probes, probe{row: "GET /v1/concepts/{name}", path: "/v1/concepts/" + c.Name, status: 200})
	}
	for _, rt := range routes {
		if rt.access == middleware.AccessSession {
			probes = append(
				probes,
				probe{
					row:     rt.method + " " + rt.path,
					path:    strings.ReplaceAll(rt.path, "{key_id}", e.keyID),
					headers: key,
					status:  403,
				},
			)
		}
	}
	probes = append(probes, taskProbes(key)...)

	answered := map[string]bool{}
	for _, p := range probes {
		t.Run(p.row+" "+p.path, func(t *testing.T) {
			e.check(t, p)
			if p.status < 300 {
				answered[p.row] = true
			}
		})
	}
	for _, rt := range routes {
		row := rt.method + " " + rt.path
		if rt.access != middleware.AccessSession && !needsTemporal[row] {
			require.True(t, answered[row], "%s is a row of the route table (api/routes.go) that no probe calls "+
				"with a success answer: add a probe{row: %q, …, status: 2xx} to the probes of "+
				"TestRoutesAnswerAsDocumented in api/routes_answers_test.go (or, when its success needs a "+
				"Temporal server, name the row in needsTemporal there and call it in e2e's "+
				"TestStackAnswersAsDocumented)", row, row)
		}
	}
}
