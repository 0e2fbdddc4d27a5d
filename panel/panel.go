// Package panel is the signed-in account panel: server-rendered pages,
// embedded in the binary, over the same models as the API. Pages only
// read; every change goes through the session-only JSON API
// (/v1/account/…) from the panel's small script.
package panel

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/models"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// panel serves the pages.
type panel struct {
	d     api.Deps
	pages map[string]*template.Template
	// pdftoppm is the program a PDF's first page is drawn with for its
	// thumbnail (poppler's); "" draws the PDF icon instead.
	pdftoppm string
	// pdfSlots bounds how many PDF pages are drawn at once.
	pdfSlots chan struct{}
}

func (p *panel) now() time.Time {
	if p.d.Now != nil {
		return p.d.Now().UTC()
	}
	return time.Now().UTC()
}

// Mount serves the API of d with the panel under /app/ (and / redirects
// there) in front of it. The panel's pages pass the API's front door
// (api.Front) under the same rules: plain HTTP refused in production, a
// key in the URL or a repeated credential or Origin header refused, the
// client read from d.TrustedProxies. Its session cookie is Secure in
// production and on every HTTPS request.
//
// A PDF's thumbnail is its first page drawn small when pdftoppm (poppler)
// is on PATH, else an icon with its page count.
func Mount(d api.Deps) http.Handler {
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		pdftoppm = ""
	}
	return mount(d, pdftoppm)
}

// mount is Mount drawing PDF previews with the pdftoppm program at that
// path ("": none).
func mount(d api.Deps, pdftoppm string) http.Handler {
	apiHandler := api.NewRouter(d)
	if d.Catalogue == nil {
		d.Catalogue = catalog.Empty()
	}
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	if d.FilesBaseURL == "" {
		d.FilesBaseURL = d.BaseURL
	}
	p := &panel{d: d, pages: parsePages(), pdftoppm: pdftoppm, pdfSlots: make(chan struct{}, pdfPreviewSlots)}
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /app/static/", http.StripPrefix("/app/static/", http.FileServerFS(static)))
	mux.HandleFunc(
		"GET /{$}",
		func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/app/", http.StatusFound) },
	)
	mux.HandleFunc("GET /app/sign-in", p.signInPage)
	mux.HandleFunc("POST /app/sign-in", p.signIn)
	mux.HandleFunc("POST /app/sign-out", p.signOut)
	mux.HandleFunc("GET /app/{$}", p.signedIn(p.overview))
	mux.HandleFunc("GET /app/jobs", p.signedIn(p.jobs))
	mux.HandleFunc("GET /app/jobs/{id}", p.signedIn(p.job))
	mux.HandleFunc("GET /app/jobs/{id}/live", p.part("joblive", p.job))
	mux.HandleFunc("GET /app/batches", p.signedIn(p.batches))
	mux.HandleFunc("GET /app/batches/{id}", p.signedIn(p.batch))
	mux.HandleFunc("GET /app/run", p.signedIn(p.runList))
	mux.HandleFunc("GET /app/run/{task}", p.signedIn(p.runForm))
	mux.HandleFunc("GET /app/files", p.signedIn(p.files))
	mux.HandleFunc("GET /app/thumbs/{id}", p.raw(p.thumb))
	mux.HandleFunc("GET /app/keys", p.signedIn(p.keys))
	mux.HandleFunc("GET /app/webhooks", p.signedIn(p.webhooks))
	mux.Handle("/app/", http.NotFoundHandler())
	csrf := http.NewCrossOriginProtection()
	pages := api.Front(d, csrf.Handler(mux))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/app/") {
			w.Header().Set("X-Frame-Options", "DENY")
			w.Header().
				Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: https: http:; style-src 'self'; "+
					"script-src 'self'; frame-ancestors 'none'")
			w.Header().Set("Referrer-Policy", "same-origin")
			pages.ServeHTTP(w, r)
			return
		}
		apiHandler.ServeHTTP(w, r)
	})
}

// secureCookie says whether the session cookie is marked Secure.
func (p *panel) secureCookie(r *http.Request) bool { return r.TLS != nil || p.d.Production }

// page is what every page template receives.
type page struct {
	Title string
	Nav   string
	User  *models.User
	Data  any
}

// viewer is a handler of a signed-in page.
type viewer func(w http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error)

// signedIn renders a page for a signed-in user; anyone else is sent to
// sign in first.
func (p *panel) signedIn(v viewer) http.HandlerFunc { return p.view(v, "") }

// part renders one block of a page alone (no layout) for a signed-in
// user, for the page's script to put in place; anyone else is answered
// 401 (the script then reloads the page, which asks to sign in).
func (p *panel) part(block string, v viewer) http.HandlerFunc { return p.view(v, block) }

// raw serves a signed-in user's request with h, which writes its own
// answer (an image); anyone else is answered 401.
func (p *panel) raw(h func(w http.ResponseWriter, r *http.Request, u *models.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var token string
		if c, _ := r.Cookie(middleware.SessionCookie); c != nil {
			token = c.Value
		}
		u, _, err := models.SessionUser(r.Context(), p.d.DB, token, p.now())
		if errors.Is(err, models.ErrNoSession) {
			http.Error(w, "Sign in again.", http.StatusUnauthorized)
			return
		}
		if err != nil {
			p.fail(w, r, err)
			return
		}
		h(w, r, u)
	}
}

func (p *panel) view(v viewer, block string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Cookie(middleware.SessionCookie)
		var token string
		if c != nil {
			token = c.Value
		}
		u, _, err := models.SessionUser(r.Context(), p.d.DB, token, p.now())
		if errors.Is(err, models.ErrNoSession) {
			if block != "" {
				http.Error(w, "Sign in again.", http.StatusUnauthorized)
				return
			}
			http.Redirect(w, r, "/app/sign-in?next="+templateURL(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		if err != nil {
			p.fail(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		name, title, data, err := v(w, r, u)
		if errors.Is(err, models.ErrNotFound) {
			w.WriteHeader(http.StatusNotFound)
			p.render(w, "notfound", "layout", page{Title: "Not found", User: u})
			return
		}
		if err != nil {
			p.fail(w, r, err)
			return
		}
		if block != "" {
			p.render(w, name, block, data)
			return
		}
		p.render(w, name, "layout", page{Title: title, Nav: name, User: u, Data: data})
	}
}

// fail answers an internal error without its text, logged with the page's
// path and request id. A browser that left the page (its request
// cancelled) is no failure: logged at DEBUG, and nobody reads the answer.
func (p *panel) fail(w http.ResponseWriter, r *http.Request, err error) {
	fields := []zap.Field{zap.String("path", r.URL.Path), zap.String("request_id", middleware.RequestID(r))}
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		p.d.Log.Debug("panel page left before it was shown", fields...)
		return
	}
	p.d.Log.Error("panel page failed", append(fields, zap.Error(err))...)
	http.Error(w, "The page could not be shown; try again in a moment.", http.StatusInternalServerError)
}

// render writes block (the whole page: "layout") of page name with data.
func (p *panel) render(w http.ResponseWriter, name, block string, data any) {
	t, ok := p.pages[name]
	if !ok {
		p.d.Log.Error("panel page failed", zap.String("template", name))
		http.Error(w, "The page could not be shown; try again in a moment.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := t.ExecuteTemplate(w, block, data); err != nil {
		level := zap.ErrorLevel
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
			level = zap.DebugLevel // the browser left while the page was written
		}
		p.d.Log.Log(level, "render", zap.String("page", name), zap.String("block", block), zap.Error(err))
	}
}

func templateURL(s string) string { return template.URLQueryEscaper(s) }
