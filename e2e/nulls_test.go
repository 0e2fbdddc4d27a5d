package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/color"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
)

// documented sends requests to a stack with the headers given (a key, or a
// panel session's cookie) and checks every answer against the served
// documents, the service's and the panel's: status, shape, and no field
// with no value written as an empty string (openapicheck.CheckAnswer).
type documented struct {
	t   *testing.T
	s   *testStack
	doc *openapi3.T
}

func newDocumented(t *testing.T, s *testStack) *documented {
	t.Helper()
	served, panel := s.do(http.MethodGet, "/v1/openapi.json", nil), s.do(http.MethodGet, "/v1/panel/openapi.json", nil)
	require.Equal(t, http.StatusOK, served.status)
	require.Equal(t, http.StatusOK, panel.status)
	return &documented{t: t, s: s, doc: openapicheck.LoadDoc(t, openapicheck.Merge(t, served.body, panel.body), true)}
}

// call sends body (nil, raw bytes with their Content-Type among headers, or
// a value sent as JSON) and checks the answer.
func (d *documented) call(method, docPath, path string, body any, status int, headers ...string) response {
	d.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		raw, err = json.Marshal(b)
		require.NoError(d.t, err)
		headers = append(headers, "Content-Type", "application/json")
	}
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, d.s.srv.URL+path, rd)
	require.NoError(d.t, err)
	check := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
		check.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(d.t, err)
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	require.NoError(d.t, err)
	require.Equal(d.t, status, res.StatusCode, "%s %s: %s", method, path, got)
	openapicheck.CheckAnswer(d.t, d.doc, method, docPath, check, raw, res.StatusCode, res.Header, got)
	return response{status: res.StatusCode, header: res.Header, body: got}
}

// items are the objects of a list answer's items.
func items(t *testing.T, r response) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, it := range r.json(t)["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// TestNoValueIsAnEmptyString drives a stack through jobs started with a
// key and in the panel (succeeded, failed, cancelled, running), files,
// records, the reference library, keys, webhooks and their delivery log,
// the account's reports and the catalogue. Every answer is checked against
// the served documents, and so is every webhook body against the event
// schema: a field with no value is null where the document lets it be null,
// and no string is empty unless the document says it may be.
func TestNoValueIsAnEmptyString(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	gone := newReceiver(t, http.StatusGone)
	motif := motifServer(t, tinyPNG(t, 4, 4))
	pool := rcv.pool()
	pool.AddCert(gone.srv.Certificate())
	pool.AddCert(motif.Certificate())
	s := newStack(t, stackOptions{credits: 100000, rootCAs: pool, stepDelay: 400 * time.Millisecond})
	ctx := context.Background()
	require.NoError(t, curated.Seed(ctx, s.db, s.acts.Blob))
	require.NoError(t, photoshoot.SeedLibrary(ctx, s.db, s.acts.Blob))
	token, _, err := models.StartSession(ctx, s.db, s.userID, "", "192.0.2.1", time.Now())
	require.NoError(t, err)
	d := newDocumented(t, s)
	key := []string{"Authorization", "Key " + s.key}
	panel := []string{"Cookie", middleware.SessionCookie + "=" + token, "Sec-Fetch-Site", "same-origin"}
	// get reads path (documented at docPath) with auth: a key, the panel's
	// cookie or nothing.
	get := func(docPath, path string, auth []string) response {
		return d.call(http.MethodGet, docPath, path, nil, http.StatusOK, auth...)
	}
	// post sends body to path with auth and the status it must answer.
	post := func(docPath, path string, body any, status int, auth []string) map[string]any {
		return d.call(http.MethodPost, docPath, path, body, status, auth...).json(t)
	}

	// A registered endpoint takes every event; a per-request URL answers 410.
	hooks := "/v1/account/webhooks"
	endpoint := post(hooks, hooks, map[string]any{"url": rcv.srv.URL + "/hook", "events": contract.JobEvents},
		http.StatusCreated, panel)["id"].(string)

	// Jobs: started with the key (succeeded, failed, cancelled, running)
	// and in the panel.
	submit := func(task string, input map[string]any, query string) string {
		return post("/v1/tasks/{name}", "/v1/tasks/"+task+query, input, http.StatusAccepted, key)["job_id"].(string)
	}
	succeeded := submit("pattern.generate", pattern(2), "?webhook_url="+gone.srv.URL+"/hook")
	failed := submit("pattern.repeat", map[string]any{"image": motif.URL + "/motif.png", "resolution": "512"}, "")
	cancelled := submit("pattern.generate", pattern(6), "")
	d.call(
		http.MethodPut,
		"/v1/jobs/{job_id}/cancel",
		"/v1/jobs/"+cancelled+"/cancel",
		nil,
		http.StatusAccepted,
		key...)
	inApp := post("/v1/account/tasks/{name}", "/v1/account/tasks/pattern.generate", pattern(1), http.StatusAccepted,
		panel)["job_id"].(string)
	running := submit("pattern.generate", pattern(8), "")
	get("/v1/jobs/{job_id}", "/v1/jobs/"+running, key)
	get("/v1/jobs", "/v1/jobs", key)
	for _, id := range []string{succeeded, failed, cancelled, inApp} {
		s.waitTerminal(id)
	}
	d.call(http.MethodPost, "/v1/tasks/{name}", "/v1/tasks/pattern.generate", pattern(1), http.StatusOK,
		append(key, "Prefer", "wait=30")...)

	byID := map[string]map[string]any{}
	for _, j := range items(t, get("/v1/jobs", "/v1/jobs?limit=100", key)) {
		byID[j["job_id"].(string)] = j
	}
	require.Nil(t, byID[inApp]["api_key_id"], "a job started in the panel names no key: %v", byID[inApp])
	require.Equal(t, s.keyID, byID[succeeded]["api_key_id"])
	get("/v1/jobs", "/v1/jobs?api_key_id="+s.keyID, key)
	for _, id := range []string{succeeded, failed, cancelled, inApp, running} {
		get("/v1/jobs/{job_id}", "/v1/jobs/"+id, key)
		get("/v1/account/jobs/{job_id}", "/v1/account/jobs/"+id, panel)
	}
	require.Nil(t, get("/v1/jobs/{job_id}", "/v1/jobs/"+inApp, key).json(t)["api_key_id"])
	result := get("/v1/jobs/{job_id}/result", "/v1/jobs/"+succeeded+"/result", key).json(t)
	get("/v1/jobs/{job_id}/result", "/v1/jobs/"+succeeded+"/result?limit=1", key)
	for _, id := range []string{failed, cancelled} {
		d.call(http.MethodGet, "/v1/jobs/{job_id}/result", "/v1/jobs/"+id+"/result", nil, http.StatusConflict, key...)
	}
	d.call(
		http.MethodPut,
		"/v1/jobs/{job_id}/cancel",
		"/v1/jobs/"+succeeded+"/cancel",
		nil,
		http.StatusBadRequest,
		key...)

	// Files: an upload, a registered URL, delivered files.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, err := mw.CreateFormFile("file", "motif.png")
	require.NoError(t, err)
	_, _ = fw.Write(tinyPNG(t, 16, 16))
	require.NoError(t, mw.Close())
	upload := post("/v1/files", "/v1/files", form.Bytes(), http.StatusCreated,
		append(key, "Content-Type", mw.FormDataContentType()))["file"].(string)
	registered := post("/v1/files", "/v1/files", map[string]any{"url": motif.URL + "/motif.png"}, http.StatusCreated,
		key)["file"].(string)
	art := result["files"].([]any)[0].(map[string]any)["file"].(string)
	for _, ref := range []string{upload, registered, art} {
		get("/v1/files/{ref}", "/v1/files/"+ref, key)
	}

	// Records: read while their jobs run and once they are ready.
	red, blue := color.RGBA{0xFF, 0, 0, 0xff}, color.RGBA{0, 0, 0xFF, 0xff}
	images := []string{s.uploadSolid(red, 64), s.uploadSolid(blue, 96), s.uploadSolid(red, 40)}
	readNewest := func(kind string) string {
		listed := items(t, get("/v1/refs/{kind}", "/v1/refs/"+kind, key))
		require.NotEmpty(t, listed, kind)
		ref := listed[0]["file"].(string)
		get("/v1/files/{ref}", "/v1/files/"+ref, key)
		return ref
	}
	board := submit("moodboard.create", map[string]any{"name": "Red and blue", "images": images}, "")
	boardRef := readNewest("moodboard")
	facts := map[string]any{"weight_gsm": 120, "construction": "poplin",
		"composition": []any{map[string]any{"fibre": "cotton", "percent": 100}}}
	fabric := submit("fabric.create", map[string]any{"name": "Red poplin", "swatch": images[0], "facts": facts}, "")
	readNewest("fabric")
	s.waitTerminal(board)
	s.waitTerminal(fabric)
	kit := submit("brand_kit.create", map[string]any{"name": "Primary", "colours": []string{"#FF0000", "#0000FF"},
		"moodboards": []string{boardRef}}, "")
	kitRef := readNewest("brand_kit")
	s.waitTerminal(kit)
	shirt := map[string]any{"type": "shirt", "name": "Red shirt", "fabric": "fabric:fb_cur_poplin_white",
		"colours": []string{"#FF0000"}, "quantity": 10}
	plan := submit("range_plan.create", map[string]any{"name": "SS27", "season": "SS27", "brand_kit": kitRef,
		"items": []any{shirt}}, "")
	readNewest("range_plan")
	s.waitTerminal(plan)

	// Every reference list, and every item of it read.
	lists := []string{"/v1/refs/moodboard?curated=true", "/v1/refs/fabric?curated=true", "/v1/refs/file?q=motif"}
	for _, kind := range api.RefKinds(all.Registry()) {
		lists = append(lists, "/v1/refs/"+kind+"?limit=100")
		get("/v1/account/refs/{kind}", "/v1/account/refs/"+kind, panel)
	}
	for _, path := range lists {
		for _, it := range items(t, get("/v1/refs/{kind}", path, key)) {
			get("/v1/files/{ref}", "/v1/files/"+it["file"].(string), key)
		}
	}
	d.call(http.MethodDelete, "/v1/files/{ref}", "/v1/files/"+art, nil, http.StatusOK, key...)
	d.call(http.MethodDelete, "/v1/files/{ref}", "/v1/files/"+upload, nil, http.StatusUnprocessableEntity, key...)

	// Keys in the panel: made with and without an expiry, rolled, revoked.
	keys := "/v1/account/keys"
	readOnly := map[string]any{"scopes": []string{models.ScopeJobsRead}}
	made := post(keys, keys, readOnly, http.StatusCreated, panel)["id"].(string)
	post(keys, keys, map[string]any{"expires_at": time.Now().Add(time.Hour).UTC()}, http.StatusCreated, panel)
	grace := map[string]any{"grace_period_seconds": 60}
	post(keys+"/{key_id}/roll", keys+"/"+made+"/roll", grace, http.StatusCreated, panel)
	d.call(http.MethodDelete, keys+"/{key_id}", keys+"/"+made, nil, http.StatusOK, panel...)
	get(keys, keys, panel)

	// Webhooks in the panel, and the delivery log.
	require.Eventually(t, func() bool { return len(gone.deliveries()) > 0 }, patience, 100*time.Millisecond)
	post(hooks+"/{endpoint_id}/ping", hooks+"/"+endpoint+"/ping", map[string]any{"event": "ping"},
		http.StatusAccepted, panel)
	require.Eventually(
		t,
		func() bool { return slices.Contains(rcv.events(), "ping") },
		time.Minute,
		100*time.Millisecond,
	)
	d.call(http.MethodPatch, hooks+"/{endpoint_id}", hooks+"/"+endpoint, map[string]any{"events": contract.JobEvents},
		http.StatusOK, panel...)
	post(hooks+"/{endpoint_id}/enable", hooks+"/"+endpoint+"/enable", nil, http.StatusOK, panel)
	get(hooks, hooks, panel)
	log := "/v1/account/webhook-deliveries"
	deliveries := items(t, get(log, log+"?limit=100", panel))
	require.NotEmpty(t, deliveries)
	for _, q := range []string{"?status=failed", "?event=job.succeeded", "?job_id=" + succeeded,
		"?endpoint_id=" + endpoint} {
		get(log, log+q, panel)
	}
	post(log+"/{delivery_id}/replay", log+"/"+deliveries[0]["id"].(string)+"/replay", nil, http.StatusAccepted, panel)

	// The account's reports; the request log holds a call that matched no
	// route.
	require.Equal(t, http.StatusNotFound, s.do(http.MethodGet, "/v1/nowhere", nil).status)
	for _, path := range []string{"/v1/account/balance", "/v1/account/limits", "/v1/account/usage",
		"/v1/account/requests", "/v1/account/requests?api_key_id=" + s.keyID, "/v1/account/metrics?group_by=day",
		"/v1/account/metrics?group_by=task", "/v1/account/metrics?group_by=key", "/v1/account/metrics?group_by=error"} {
		docPath, _, _ := strings.Cut(path, "?")
		get(docPath, path, key)
	}

	// The catalogue.
	for _, path := range []string{"/v1/tasks?limit=100", "/v1/vocab", "/v1/concepts", "/v1/recipes",
		"/v1/errors?limit=100", "/v1/pricing?limit=100", "/v1/meta", "/v1/changelog?limit=100"} {
		docPath, _, _ := strings.Cut(path, "?")
		get(docPath, path, nil)
	}
	for _, task := range items(t, get("/v1/tasks", "/v1/tasks?limit=100", nil)) {
		name := task["name"].(string)
		get("/v1/tasks/{name}", "/v1/tasks/"+name, nil)
		get("/v1/tasks/{name}/examples", "/v1/tasks/"+name+"/examples", nil)
	}
	for _, v := range items(t, get("/v1/vocab", "/v1/vocab", nil)) {
		get("/v1/vocab/{name}", "/v1/vocab/"+v["name"].(string), nil)
	}

	// Every webhook body: started, progress and terminal events of every
	// outcome.
	want := []string{contract.EventStarted, contract.EventProgress, contract.EventSucceeded, contract.EventFailed,
		contract.EventCancelled}
	require.Eventually(t, func() bool {
		got := rcv.events()
		for _, e := range want {
			if !slices.Contains(got, e) {
				return false
			}
		}
		return true
	}, time.Minute, 100*time.Millisecond)
	event := d.doc.Components.Schemas["JobEvent"]
	require.NotNil(t, event, "the JobEvent schema is served")
	for _, got := range append(rcv.deliveries(), gone.deliveries()...) {
		if got.event["event"] == "ping" {
			continue
		}
		var body any
		require.NoError(t, json.Unmarshal(got.body, &body))
		require.NoError(t, event.Value.VisitJSON(body, openapi3.EnableJSONSchema2020()), "%s", got.body)
		openapicheck.CheckValues(t, event, body, "the webhook body "+string(got.body))
	}
}
