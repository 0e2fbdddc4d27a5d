package panel

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/models"
)

// Sign-in attempts allowed per window, per account and per address.
const (
	signInWindow     = 15 * time.Minute
	signInPerAccount = 10
	signInPerAddress = 50
)

// signInData is the sign-in page's.
type signInData struct {
	Email, Next, Error string
}

func (p *panel) signInPage(w http.ResponseWriter, r *http.Request) {
	p.render(w, "signin", page{Title: "Sign in", Data: signInData{Next: safeNext(r.URL.Query().Get("next"))}})
}

// safeNext keeps a redirect after sign-in inside the panel.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/app/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/app/"
	}
	return next
}

// signIn checks the password, within the attempt limits, and starts a new
// session: a token the browser held before is ended, never promoted.
func (p *panel) signIn(w http.ResponseWriter, r *http.Request) {
	email := strings.TrimSpace(r.PostFormValue("email"))
	data := signInData{Email: email, Next: safeNext(r.PostFormValue("next"))}
	again := func(status int, msg string) {
		data.Error = msg
		w.WriteHeader(status)
		p.render(w, "signin", page{Title: "Sign in", Data: data})
	}
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	for _, lim := range []struct {
		subject string
		max     int64
	}{{"signin:acct:" + strings.ToLower(email), signInPerAccount}, {"signin:ip:" + ip, signInPerAddress}} {
		hit, err := models.HitRate(r.Context(), p.d.DB, lim.subject, signInWindow)
		if err != nil {
			p.fail(w, err)
			return
		}
		if hit.Calls > lim.max {
			w.Header().Set("Retry-After", fmt.Sprint(hit.ResetSeconds()))
			again(http.StatusTooManyRequests, fmt.Sprintf("Too many sign-in attempts; try again in %d minutes.", (hit.ResetSeconds()+59)/60))
			return
		}
	}
	u, err := models.CheckPassword(r.Context(), p.d.DB, email, r.PostFormValue("password"))
	if errors.Is(err, models.ErrBadCredentials) {
		again(http.StatusUnauthorized, "The email or the password is wrong.")
		return
	}
	if err != nil {
		p.fail(w, err)
		return
	}
	var previous string
	if c, err := r.Cookie(api.SessionCookie); err == nil {
		previous = c.Value
	}
	token, s, err := models.StartSession(r.Context(), p.d.DB, u.ID, previous, ip, p.now())
	if err != nil {
		p.fail(w, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: api.SessionCookie, Value: token, Path: "/", Expires: s.ExpiresAt, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || p.d.SecureCookies})
	http.Redirect(w, r, data.Next, http.StatusSeeOther)
}

// signOut ends the session and clears its cookie.
func (p *panel) signOut(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(api.SessionCookie); err == nil {
		if err := models.EndSession(r.Context(), p.d.DB, c.Value); err != nil {
			p.fail(w, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: api.SessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || p.d.SecureCookies})
	http.Redirect(w, r, "/app/sign-in", http.StatusSeeOther)
}
