// Package engines runs task steps on model servers the operator runs: the
// protocols an external engine speaks (cog.go: the Cog HTTP prediction
// protocol; a second protocol is one more file and one line in protocols),
// the operator's configuration (TP_ENGINES) that routes a built-in task's
// steps to an engine or declares a new task without Go, and the start-up
// checks a configured task passes before the service serves it.
package engines

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/tasks"
)

// Kind sorts an engine's failures by what the job does about them.
type Kind int

// The kinds of Failure.
const (
	// Failed: the model could not make the output; retrying will not help.
	Failed Kind = iota
	// Refused: the model refused the content (its safety checker).
	Refused
	// Busy: the engine is overloaded (busy with another prediction,
	// rate-limited, still loading); a later attempt may succeed.
	Busy
	// Unavailable: the engine did not answer, or lost the prediction; a
	// later attempt may succeed.
	Unavailable
	// Down: the model server answers but cannot serve until its operator
	// restarts it (its setup failed, or it hit a fatal error): the service's
	// fault, not the input's; a job submitted later may succeed, a retry of
	// the step on the same server will not (downs.go).
	Down
)

// Failure is an engine's answer that is not a file. Err is the cause, for
// the logs and the operator's view of the step; never shown to a caller.
type Failure struct {
	Kind Kind
	Err  error
}

// Error implements error.
func (f *Failure) Error() string { return fmt.Sprintf("engine failure (kind %d): %v", f.Kind, f.Err) }

// Unwrap is the cause.
func (f *Failure) Unwrap() error { return f.Err }

func fail(k Kind, format string, args ...any) error {
	return &Failure{Kind: k, Err: fmt.Errorf(format, args...)}
}

// Clients are the HTTP clients engines speak through.
type Clients struct {
	// Fetch is the SSRF-safe client (package outbound) that fetches an
	// output URL on any host other than the engine's own: only the
	// engine's address is trusted by configuration.
	Fetch *http.Client
	// Engine reaches the engines' own addresses; nil means a client with
	// no proxy from the environment and no overall timeout (a prediction
	// may run for minutes; its context bounds it). Whichever it is, a
	// redirect away from the engine's origin is refused (engine).
	Engine *http.Client
	// Completions takes async predictions' webhooks at the service's own
	// address (package enginehooks): an async engine without
	// webhook_listen reports there. Nil: such an engine is refused.
	Completions Completions
	// Leases count each replica's predictions across every worker
	// (models.EngineLeases). Nil: each process counts its own.
	Leases Leases
	// Log takes the operator's lines about an engine (a model server that
	// cannot serve); nil: Assemble's logger.
	Log *zap.Logger
}

// Completions are the webhooks of async predictions as the service took
// them, on any process: a step reads its prediction's there, so the
// prediction does not depend on the worker that made it.
type Completions interface {
	// Expect makes prediction id known and answers the webhook address
	// the engine is to report it to, the same in every attempt.
	Expect(ctx context.Context, id string) (string, error)
	// Latest is the prediction's latest webhook body, nil before the first.
	Latest(ctx context.Context, id string) ([]byte, error)
	// Reset forgets what was reported, keeping the address valid.
	Reset(ctx context.Context, id string) error
	// Forget deletes what is kept of the prediction.
	Forget(ctx context.Context, id string) error
}

// ErrRedirectOffEngine is a redirect from an engine's address to another
// origin: the trust the configuration gives the engine's address does not
// carry over to wherever it points, so it is not followed.
var ErrRedirectOffEngine = errors.New("engines: a redirect leaves the engine's origin")

// maxEngineRedirects bounds the redirects followed within an engine's origin.
const maxEngineRedirects = 5

// engine is the client that speaks to the engine at origin: it follows a
// redirect only within that origin (scheme and host:port).
func (c Clients) engine(origin *url.URL) *http.Client {
	var cl http.Client
	if c.Engine != nil {
		cl = *c.Engine
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		cl.Transport = t
	}
	cl.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			return fmt.Errorf("%w: to %s", ErrRedirectOffEngine, req.URL.Redacted())
		}
		if len(via) >= maxEngineRedirects {
			return fmt.Errorf("engines: stopped after %d redirects", maxEngineRedirects)
		}
		return nil
	}
	return &cl
}

// protocols builds an engine of each protocol the configuration may name.
var protocols = map[string]func(name string, c EngineConfig, cl Clients) (tasks.Engine, error){
	"cog": newCog,
}

// New builds the engine the configuration describes.
func New(name string, c EngineConfig, cl Clients) (tasks.Engine, error) {
	build, ok := protocols[c.Protocol]
	if !ok {
		return nil, fmt.Errorf("engine %s: unknown protocol %q", name, c.Protocol)
	}
	if cl.Fetch == nil {
		return nil, errors.New("engines: no fetch client for output URLs")
	}
	return build(name, c, cl)
}

// duration reads a configured Go duration, def when empty.
func duration(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("duration %q is not a positive Go duration", s)
	}
	return d, nil
}
