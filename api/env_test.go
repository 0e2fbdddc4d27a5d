package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// env is the API without Temporal on a database of the test's own, with
// one account on the standard plan and a key holding every scope.
type env struct {
	t     *testing.T
	db    *gorm.DB
	r     *gin.Engine
	user  *models.User
	key   string
	keyID string
}

func newEnv(t *testing.T, b testenv.Backend, tweak ...func(*Deps)) *env {
	t.Helper()
	db := testenv.DB(t, b)
	d := Deps{DB: db, BaseURL: "https://api.example.test", Log: zaptest.NewLogger(t), Catalogue: servedCatalogue()}
	for _, f := range tweak {
		f(&d)
	}
	e := &env{t: t, db: db, r: NewRouter(d)}
	e.user, e.key, e.keyID = e.account(models.PlanStandard)
	return e
}

// account makes a user on plan with a key holding every scope.
func (e *env) account(plan string) (*models.User, string, string) {
	e.t.Helper()
	u, err := models.CreateUser(context.Background(), e.db, models.NewID("")+"@example.com", plan)
	require.NoError(e.t, err)
	secret, id := e.newKey(u.ID, nil, nil)
	u, err = models.UserByID(context.Background(), e.db, u.ID)
	require.NoError(e.t, err)
	return u, secret, id
}

func (e *env) newKey(userID uint64, scopes []string, expiresAt *time.Time) (string, string) {
	e.t.Helper()
	k, secret, err := models.CreateKey(context.Background(), e.db, userID, scopes, expiresAt, CurrentVersion)
	require.NoError(e.t, err)
	return secret, k.ID
}

// answer is one decoded response.
type answer struct {
	code int
	head http.Header
	body []byte
}

func (a answer) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(a.body, &m), "body: %s", a.body)
	return m
}

// errObj is the error object of an error answer.
func (a answer) errObj(t *testing.T) map[string]any {
	t.Helper()
	e, ok := a.obj(t)["error"].(map[string]any)
	require.True(t, ok, "no error object in %s", a.body)
	return e
}

func (a answer) errCode(t *testing.T) string {
	t.Helper()
	return a.errObj(t)["code"].(string)
}

// request builds a request from 192.0.2.1 with header name/value pairs.
func request(method, path string, body io.Reader, headers ...string) *http.Request {
	req := httptest.NewRequest(method, path, body)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	return req
}

// serve answers req with h.
func serve(h http.Handler, req *http.Request) answer {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return answer{w.Code, w.Header(), w.Body.Bytes()}
}

// send answers a request with a string body.
func (e *env) send(method, path, body string, headers ...string) answer {
	return serve(e.r, request(method, path, strings.NewReader(body), headers...))
}

// keyed is the header pair sending secret the preferred way.
func keyed(secret string) []string { return []string{"Authorization", "Key " + secret} }

func with(pairs []string, more ...string) []string {
	return append(append([]string(nil), pairs...), more...)
}
