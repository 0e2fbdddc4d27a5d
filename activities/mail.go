package activities

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"time"
)

// Mailer sends one e-mail message (RFC 5322 bytes) from one address to one.
type Mailer interface {
	Send(ctx context.Context, from, to string, msg []byte) error
}

// SMTP sends mail through the server of TP_SMTP_URL:
// smtp://user:pass@host:587 (STARTTLS when the server offers it, required
// before any password is sent) or smtps://…:465 (TLS from the start).
// ?from=addr sets the sender (default taskplatform@host).
type SMTP struct {
	u *url.URL
	// TLS is the client TLS configuration; nil is the system's.
	TLS *tls.Config
}

// NewSMTP reads a TP_SMTP_URL.
func NewSMTP(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, errors.New("TP_SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…")
	}
	return &SMTP{u: u}, nil
}

// From is the sender address.
func (s *SMTP) From() string {
	if f := s.u.Query().Get("from"); f != "" {
		return f
	}
	return "taskplatform@" + s.u.Hostname()
}

// Send delivers msg to to.
func (s *SMTP) Send(ctx context.Context, from, to string, msg []byte) error {
	host, port := s.u.Hostname(), s.u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[s.u.Scheme]
	}
	tlsConf := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if s.TLS != nil {
		tlsConf = s.TLS.Clone()
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("smtp dial: %w", err)
	}
	if s.u.Scheme == "smtps" {
		conn = tls.Client(conn, tlsConf)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	} else {
		_ = conn.SetDeadline(time.Now().Add(time.Minute))
	}
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp greeting: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && s.u.Scheme == "smtp" {
		if err := c.StartTLS(tlsConf); err != nil {
			return fmt.Errorf("smtp starttls: %w", err)
		}
	}
	if user := s.u.User; user != nil {
		pass, _ := user.Password()
		// PlainAuth refuses to send the password without TLS (but to localhost).
		if err := c.Auth(smtp.PlainAuth("", user.Username(), pass, host)); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
	}
	if err := c.Mail(from); err != nil {
		return fmt.Errorf("smtp mail from: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp rcpt to: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("smtp write: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp end of data: %w", err)
	}
	return c.Quit()
}
