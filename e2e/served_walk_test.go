package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
)

// walkStack is a stack as the binary starts it (the curated library and
// the photoshoots library written), with a brand-new account holding
// service and model credits and nothing else: no upload, no record, no
// delivered file.
func walkStack(t *testing.T) *testStack {
	s := newStack(t, stackOptions{credits: 100_000})
	ctx := context.Background()
	require.NoError(t, curated.Seed(ctx, s.db, s.acts.Blob))
	require.NoError(t, photoshoot.SeedLibrary(ctx, s.db, s.acts.Blob))
	_, err := models.Grant(ctx, s.db, s.userID, contract.CreditModel, 1000, nil, "test")
	require.NoError(t, err)
	return s
}

// walkWait is how long one served job may take on a loaded machine.
const walkWait = 4 * time.Minute

// requireSucceeded runs body on a task as a user following the served
// docs would: its estimate answers 200, its submit is accepted, and the
// job ends succeeded with every output made (no output_not_produced). It
// answers the job's result.
func (s *testStack) requireSucceeded(t *testing.T, what, task, body string, headers map[string]string) map[string]any {
	t.Helper()
	est := s.do(http.MethodPost, "/v1/tasks/"+task+"/estimate", body)
	require.Equal(t, http.StatusOK, est.status, "%s: estimate: %s", what, est.body)
	var hs []string
	for k, v := range headers {
		hs = append(hs, k, v)
	}
	res := s.do(http.MethodPost, "/v1/tasks/"+task, body, hs...)
	require.Contains(t, []int{http.StatusOK, http.StatusAccepted}, res.status, "%s: submit: %s", what, res.body)
	id, _ := res.json(t)["job_id"].(string)
	require.NotEmpty(t, id, "%s: %s", what, res.body)
	job := s.waitTerminalWithin(id, walkWait)
	require.Equal(t, "succeeded", job["outcome"], "%s: %v", what, job)
	result := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusOK, result.status, "%s: %s", what, result.body)
	out := result.json(t)
	if sum, ok := out["summary"].(map[string]any); ok {
		warnings, _ := sum["warnings"].([]any)
		for _, w := range warnings {
			require.NotEqual(t, "output_not_produced", w.(map[string]any)["code"], "%s: every output made: %v", what, w)
		}
	}
	require.NotEmpty(t, out["files"], "%s: files", what)
	out["job_id"] = id
	return out
}

// TestEveryServedExampleRunsForANewAccount submits every example of every
// task the binary serves, as served (GET /v1/tasks/{name}/examples), from
// a brand-new account: each estimates, is accepted and succeeds with all
// its outputs.
func TestEveryServedExampleRunsForANewAccount(t *testing.T) {
	t.Parallel()
	s := walkStack(t)
	ran, want := 0, 0
	for _, d := range served().Tasks().Runnable() {
		res := s.do(http.MethodGet, "/v1/tasks/"+d.Name+"/examples", nil)
		require.Equal(t, http.StatusOK, res.status, "%s: %s", d.Name, res.body)
		items, _ := res.json(t)["items"].([]any)
		// Every task serves its examples, all of them: a task whose list came back
		// short or empty would otherwise be walked past.
		require.NotEmpty(t, items, "%s serves no example", d.Name)
		require.Len(t, items, len(d.Examples), "%s: served examples", d.Name)
		want += len(d.Examples)
		for _, it := range items {
			ex := it.(map[string]any)
			req := ex["request"].(map[string]any)
			body, err := json.Marshal(req["body"])
			require.NoError(t, err)
			s.requireSucceeded(t, d.Name+" example "+ex["name"].(string), d.Name, string(body), nil)
			ran++
		}
	}
	require.Equal(t, want, ran, "every served example run")
}

// fromStep is a recipe's placeholder: kind:FROM_STEP_N is step N's
// handle of that kind.
var fromStep = regexp.MustCompile(`([a-z_]+):FROM_STEP_(\d+)`)

// firstHandle is the first string of v, keys in sorted order, that is a
// handle of kind (kind:<id>), or "".
func firstHandle(v any, kind string) string {
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, kind+":") && !strings.Contains(x, "/") {
			return x
		}
	case []any:
		for _, e := range x {
			if h := firstHandle(e, kind); h != "" {
				return h
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if h := firstHandle(x[k], kind); h != "" {
				return h
			}
		}
	}
	return ""
}

// TestEveryServedRecipeRunsForANewAccount walks every recipe the binary
// serves (GET /v1/recipes), step by step, from a brand-new account: an
// upload step sends a product photographed on a plain sweep, a step's
// kind:FROM_STEP_N takes step N's first handle of that kind, {job_id} the
// last job's; every task step estimates, is accepted and succeeds with
// all its outputs, every read answers 200, and a record being analysed or
// created is waited for until it is ready.
func TestEveryServedRecipeRunsForANewAccount(t *testing.T) {
	t.Parallel()
	s := walkStack(t)
	res := s.do(http.MethodGet, "/v1/recipes", nil)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	recipes := res.json(t)["items"].([]any)
	defined := served().Tasks().Recipes()
	require.Len(t, recipes, len(defined), "every recipe served")
	walked := 0
	steps := map[string]int{}
	for _, r := range defined {
		steps[r.Name] = len(r.Steps)
	}
	for _, it := range recipes {
		r := it.(map[string]any)
		served := r["steps"].([]any)
		require.Contains(t, steps, r["name"], "a defined recipe")
		require.Len(t, served, steps[r["name"].(string)], "%s: every step served", r["name"])
		delete(steps, r["name"].(string))
		walked += s.walkRecipe(t, r["name"].(string), served)
	}
	require.Positive(t, walked, "task steps run")
}

// walkRecipe runs one recipe's steps in order; it answers how many task
// steps (estimates and submits) it ran.
func (s *testStack) walkRecipe(t *testing.T, name string, steps []any) int {
	t.Helper()
	answers := make([]any, len(steps)+1) // by step number, from 1
	job, ran := "", 0
	fill := func(what, text string) string {
		text = fromStep.ReplaceAllStringFunc(text, func(m string) string {
			p := fromStep.FindStringSubmatch(m)
			var n int
			_, err := fmt.Sscan(p[2], &n)
			require.NoError(t, err)
			require.Less(t, n, len(answers), "%s: %s", what, m)
			h := firstHandle(answers[n], p[1])
			require.NotEmpty(t, h, "%s: step %d answered no %s: handle: %v", what, n, p[1], answers[n])
			return h
		})
		return strings.ReplaceAll(text, "{job_id}", job)
	}
	for i, raw := range steps {
		st := raw.(map[string]any)
		what := fmt.Sprintf("recipe %s step %d (%s)", name, i+1, st["title"])
		path := fill(what, st["path"].(string))
		task, _ := st["task"].(string)
		headers := map[string]string{}
		if h, ok := st["headers"].(map[string]any); ok {
			for k, v := range h {
				headers[k] = v.(string)
			}
		}
		switch {
		case st["method"] == http.MethodPost && path == "/v1/files":
			up := s.upload("product.png", productPNG(t, 600, 800))
			answers[i+1] = map[string]any{"file": up}
		case st["method"] == http.MethodPost && task != "" && strings.HasSuffix(path, "/estimate"):
			body, err := json.Marshal(st["body"])
			require.NoError(t, err)
			est := s.do(http.MethodPost, path, fill(what, string(body)))
			require.Equal(t, http.StatusOK, est.status, "%s: %s", what, est.body)
			answers[i+1] = est.json(t)
			ran++
		case st["method"] == http.MethodPost && task != "":
			require.Equal(t, "/v1/tasks/"+task, path, what)
			body, err := json.Marshal(st["body"])
			require.NoError(t, err)
			out := s.requireSucceeded(t, what, task, fill(what, string(body)), headers)
			job = out["job_id"].(string)
			answers[i+1] = out
			ran++
		case st["method"] == http.MethodGet:
			answers[i+1] = s.readReady(t, what, path)
		default:
			require.Failf(t, "a step the walk cannot take", "%s: %v", what, st)
		}
	}
	return ran
}

// readReady GETs path (200), waiting while the record it reads is still
// being analysed or created; the record must end ready.
func (s *testStack) readReady(t *testing.T, what, path string) map[string]any {
	t.Helper()
	var body map[string]any
	require.Eventually(t, func() bool {
		res := s.do(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, res.status, "%s: %s", what, res.body)
		body = res.json(t)
		status, _ := body["status"].(string)
		return status != "analysing" && status != "creating"
	}, walkWait, 200*time.Millisecond, what)
	if status, ok := body["status"].(string); ok && strings.HasPrefix(path, "/v1/files/") {
		require.Equal(t, "ready", status, "%s: %v", what, body)
	}
	return body
}
