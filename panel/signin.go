package panel

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

// Sign-in limits: the wrong passwords an address sends for an account slow
// that address's next attempts on that account (never a lockout: a right
// password works after the wait, at most signInBackoff.Max); another
// address — the owner's — is not slowed by them. And a client address may
// make signInPerAddress attempts in signInWindow, whichever accounts they
// name.
var signInBackoff = models.SignInBackoff{Free: 5, Max: time.Minute, Forget: time.Hour}

const (
	signInWindow     = 15 * time.Minute
	signInPerAddress = 50
)

// signInData is the sign-in page's.
type signInData struct {
	Email, Next, Error string
}

func (p *panel) signInPage(w http.ResponseWriter, r *http.Request) {
	p.render(w, "signin", "layout", page{Title: "Sign in", Data: signInData{Next: safeNext(r.URL.Query().Get("next"))}})
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
		p.render(w, "signin", "layout", page{Title: "Sign in", Data: data})
	}
	if !readable(email) {
		again(http.StatusBadRequest, "The email is not readable text.")
		return
	}
	ip := middleware.ClientAddress(r)
	now := p.now()
	wait, err := models.CountSignInAttempt(r.Context(), p.d.DB, "addr:"+ip, signInPerAddress, signInWindow, now)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	account := "acct:" + strings.ToLower(email) + " addr:" + ip
	if wait == 0 {
		if wait, err = models.ClaimSignIn(r.Context(), p.d.DB, account, signInBackoff, now); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	if wait > 0 {
		secs := int64((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", fmt.Sprint(secs))
		again(http.StatusTooManyRequests, "Too many sign-in attempts; try again in "+inWords(secs)+".")
		return
	}
	u, err := models.CheckPassword(r.Context(), p.d.DB, email, r.PostFormValue("password"))
	if errors.Is(err, models.ErrBadCredentials) {
		again(http.StatusUnauthorized, "The email or the password is wrong.")
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	if err := models.ForgetSignIn(r.Context(), p.d.DB, account); err != nil {
		p.fail(w, r, err)
		return
	}
	var previous string
	if c, err := r.Cookie(middleware.SessionCookie); err == nil {
		previous = c.Value
	}
	token, s, err := models.StartSession(r.Context(), p.d.DB, u.ID, previous, ip, now)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	http.SetCookie(
		w,
		&http.Cookie{Name: middleware.SessionCookie, Value: token, Path: "/", Expires: s.ExpiresAt, HttpOnly: true,
			SameSite: http.SameSiteLaxMode, Secure: p.secureCookie(r)},
	)
	http.Redirect(w, r, data.Next, http.StatusSeeOther)
}

// signOut ends the session and clears its cookie.
func (p *panel) signOut(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(middleware.SessionCookie); err == nil {
		if err := models.EndSession(r.Context(), p.d.DB, c.Value); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: middleware.SessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: p.secureCookie(r)})
	http.Redirect(w, r, "/app/sign-in", http.StatusSeeOther)
}

// readable says whether s is UTF-8 without NUL: text the database stores
// as it was sent.
func readable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// inWords is a wait for people: "1 second", "40 seconds", "15 minutes".
func inWords(secs int64) string {
	switch {
	case secs == 1:
		return "1 second"
	case secs < 120:
		return fmt.Sprintf("%d seconds", secs)
	}
	return fmt.Sprintf("%d minutes", (secs+59)/60)
}
