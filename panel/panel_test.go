package panel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/testenv"
)

const password = "correct horse battery"

// newPanel is the panel in front of the API on a database of the test's
// own, with one account that has a password.
func newPanel(t *testing.T, tweak ...func(*api.Deps)) (http.Handler, *models.User) {
	t.Helper()
	return newPanelDrawing(t, "", tweak...)
}

// newPanelDrawing is newPanel drawing PDF previews with the pdftoppm
// program at that path ("": none, whatever the machine has, so a PDF's
// thumbnail is its icon).
func newPanelDrawing(t *testing.T, pdftoppm string, tweak ...func(*api.Deps)) (http.Handler, *models.User) {
	t.Helper()
	db := testenv.DB(t, testenv.SQLite)
	u, err := models.CreateUser(context.Background(), db, "ada@example.com", models.PlanStandard)
	require.NoError(t, err)
	require.NoError(t, models.SetPassword(context.Background(), db, u.ID, password))
	d := api.Deps{DB: db, BaseURL: "http://panel.test", Catalogue: catalogue.New(all.Registry())}
	for _, f := range tweak {
		f(&d)
	}
	return mount(d, pdftoppm), u
}

func do(h http.Handler, method, path string, form url.Values, headers ...string) *httptest.ResponseRecorder {
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	req := httptest.NewRequest(method, "http://panel.test"+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func sessionCookie(w *httptest.ResponseRecorder) *http.Cookie {
	for _, c := range w.Result().Cookies() {
		if c.Name == middleware.SessionCookie {
			return c
		}
	}
	return nil
}

func TestSignInAnswersWrongPasswordAndUnknownEmailAlike(t *testing.T) {
	t.Parallel()
	h, _ := newPanel(t)
	wrong := do(
		h,
		http.MethodPost,
		"/app/sign-in",
		url.Values{"email": {"ada@example.com"}, "password": {"not the password"}},
	)
	unknown := do(
		h,
		http.MethodPost,
		"/app/sign-in",
		url.Values{"email": {"nobody@example.com"}, "password": {"not the password"}},
	)
	require.Equal(t, http.StatusUnauthorized, wrong.Code)
	require.Equal(t, wrong.Code, unknown.Code)
	require.Contains(t, wrong.Body.String(), "The email or the password is wrong.")
	require.Contains(t, unknown.Body.String(), "The email or the password is wrong.")
	require.Nil(t, sessionCookie(wrong))
}

func TestSignInRotatesTheSessionAndPagesRender(t *testing.T) {
	t.Parallel()
	h, _ := newPanel(t)
	require.Equal(t, "/app/", do(h, http.MethodGet, "/", nil).Header().Get("Location"))
	require.True(t, strings.HasPrefix(do(h, http.MethodGet, "/app/keys", nil).Header().Get("Location"), "/app/sign-in"))

	planted := "attacker-chosen-token"
	ok := do(
		h,
		http.MethodPost,
		"/app/sign-in",
		url.Values{"email": {"Ada@Example.com"}, "password": {password}, "next": {"/app/keys"}},
		"Cookie",
		middleware.SessionCookie+"="+planted,
	)
	require.Equal(t, http.StatusSeeOther, ok.Code, ok.Body.String())
	require.Equal(t, "/app/keys", ok.Header().Get("Location"))
	c := sessionCookie(ok)
	require.NotNil(t, c)
	require.NotEqual(t, planted, c.Value, "a token held before sign-in is never signed in")
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	require.Equal(
		t,
		http.StatusSeeOther,
		do(h, http.MethodGet, "/app/keys", nil, "Cookie", middleware.SessionCookie+"="+planted).Code,
		"the planted token is still signed out",
	)

	cookie := middleware.SessionCookie + "=" + c.Value
	for _, path := range []string{"/app/", "/app/jobs", "/app/run", "/app/run/pattern.stripes", "/app/run/image.resize",
		"/app/files", "/app/files?kind=art", "/app/keys", "/app/webhooks?status=failed"} {
		w := do(h, http.MethodGet, path, nil, "Cookie", cookie)
		require.Equal(t, http.StatusOK, w.Code, "%s: %s", path, w.Body.String())
		require.Contains(t, w.Body.String(), "ada@example.com", path)
	}
	require.Equal(t, http.StatusOK, do(h, http.MethodGet, "/v1/account/keys", nil, "Cookie", cookie).Code)

	cross := do(
		h,
		http.MethodPost,
		"/app/sign-out",
		url.Values{},
		"Cookie",
		cookie,
		"Sec-Fetch-Site",
		"cross-site",
		"Origin",
		"https://evil.example",
	)
	require.Equal(t, http.StatusForbidden, cross.Code, "a cross-site sign-out is refused")
	require.Equal(t, http.StatusOK, do(h, http.MethodGet, "/app/keys", nil, "Cookie", cookie).Code)

	out := do(h, http.MethodPost, "/app/sign-out", url.Values{}, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusSeeOther, out.Code)
	require.Equal(
		t,
		http.StatusSeeOther,
		do(h, http.MethodGet, "/app/keys", nil, "Cookie", cookie).Code,
		"the session ended",
	)
	require.Equal(t, http.StatusForbidden, do(h, http.MethodGet, "/v1/account/keys", nil, "Cookie", cookie).Code)
}
