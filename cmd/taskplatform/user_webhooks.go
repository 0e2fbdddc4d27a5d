package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// webhooksCmd is `webhooks listen`: the account's deliveries on this
// machine, as `stripe listen` gives them.
func (r *userRun) webhooksCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "webhooks",
		Short: "receive your account's webhooks on this machine",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return &usageError{`missing command after "webhooks": listen`}
		},
	}
	var forward, events string
	var asJSON bool
	listen := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "forward your account's job events, signed, to a local address until Ctrl-C",
		Long: "Reads the account's job events from the service as signed webhook deliveries (GET /v1/events), checks\n" +
			"each signature against the service's published keys and POSTs the body with its X-Service-* headers to\n" +
			"--forward-to, so a receiver verifies it exactly as a registered endpoint's. Nothing is registered and the\n" +
			"service never connects to this machine: no https, no public address, no TP_ALLOW_PRIVATE_URLS, and it\n" +
			"works against a remote service too. One line per event: time, event, job, the receiver's answer;\n" +
			"--json prints one JSON object per event instead (type, job_id, delivery_id, forward).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			target, err := forwardURL(forward)
			if err != nil {
				return err
			}
			kinds, err := listenEvents(events)
			if err != nil {
				return err
			}
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			r.asJSON = asJSON
			return r.listen(c.Context(), cl, target, kinds)
		},
	}
	listen.Flags().
		StringVar(&forward, "forward-to", "", "where each delivery is POSTed, e.g. localhost:3000/hook (required)")
	listen.Flags().StringVar(&events, "events", "", "comma-separated events to forward (default: every job event)")
	listen.Flags().BoolVar(&asJSON, "json", false,
		"print one JSON object per event on standard output (type, job_id, delivery_id, forward), for scripts")
	c.AddCommand(listen)
	return c
}

// forwardURL reads --forward-to: a URL, or host:port/path as stripe takes
// it (http:// is assumed).
func forwardURL(s string) (string, error) {
	if s == "" {
		return "", &usageError{"--forward-to is required, e.g. --forward-to localhost:3000/hook"}
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", &usageError{fmt.Sprintf("--forward-to %q: expected an http(s) URL such as localhost:3000/hook", s)}
	}
	return u.String(), nil
}

// listenEvents reads --events against the job events of the webhook_event
// vocabulary (not ping, nor the account-level events such as
// spend.threshold and batch.completed, which the listen stream does not
// carry); empty is all of them.
func listenEvents(list string) ([]string, error) {
	known := slices.DeleteFunc(slices.Clone(catalogue.ServiceVocabValues("webhook_event")),
		func(e string) bool { return e == contract.EventPing || slices.Contains(contract.AccountEvents, e) })
	if strings.TrimSpace(list) == "" {
		return known, nil
	}
	var out []string
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if !slices.Contains(known, e) {
			return nil, &usageError{fmt.Sprintf("--events: unknown event %q (known: %s)", e, strings.Join(known, ","))}
		}
		out = append(out, e)
	}
	return out, nil
}

// listen forwards deliveries until ctx ends (Ctrl-C): exit 0.
func (r *userRun) listen(ctx context.Context, cl *client.Client, target string, kinds []string) error {
	verifier := client.NewVerifier(cl.BaseURL())
	hc := &http.Client{Timeout: 30 * time.Second}
	first := true
	err := cl.Listen(ctx, func() {
		if first {
			fmt.Fprintf(r.stderr, "Ready: forwarding the job events of your account at %s to %s (Ctrl-C to stop)\n",
				cl.BaseURL(), target)
			first = false
		}
	}, func(d client.ListenDelivery) {
		if !slices.Contains(kinds, d.Event) {
			return
		}
		f := r.forward(ctx, verifier, hc, target, d)
		if r.asJSON {
			line, _ := json.Marshal(f)
			fmt.Fprintln(r.stdout, string(line))
			return
		}
		fmt.Fprintln(r.stdout, f.line())
	})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// forwarded is what became of one event: a line of text, or with --json
// one JSON object.
type forwarded struct {
	Time       time.Time      `json:"time"`
	Type       string         `json:"type"`
	JobID      string         `json:"job_id"`
	DeliveryID string         `json:"delivery_id"`
	Progress   *wire.Progress `json:"progress"`
	Forward    forwardStatus  `json:"forward"`
}

// forwardStatus is the receiver's answer: Status is its HTTP status, 0
// when it gave none (Error says why: a bad signature, so not forwarded, or
// the receiver unreachable).
type forwardStatus struct {
	Delivered bool   `json:"delivered"`
	Status    int    `json:"status,omitempty"`
	Error     string `json:"error,omitempty"`
}

// line is f as one line of text: time, event, job and outputs delivered,
// the receiver's answer and the delivery id.
func (f forwarded) line() string {
	line := fmt.Sprintf("%s  %-13s", f.Time.Format("15:04:05"), f.Type)
	if f.JobID != "" {
		line += "  " + f.JobID
	}
	if f.Progress != nil {
		line += describeProgress(*f.Progress)
	}
	switch {
	case f.Forward.Status != 0:
		line += fmt.Sprintf("  → %d %s", f.Forward.Status, http.StatusText(f.Forward.Status))
	case f.JobID == "":
		line += "  not forwarded: " + f.Forward.Error
	default:
		line += "  → not delivered: " + f.Forward.Error
	}
	return line + "  [" + f.DeliveryID + "]"
}

// forward checks one delivery's signature, POSTs it to target and says
// what became of it.
func (r *userRun) forward(
	ctx context.Context,
	v *client.Verifier,
	hc *http.Client,
	target string,
	d client.ListenDelivery,
) forwarded {
	f := forwarded{Time: time.Now(), Type: d.Event, DeliveryID: d.ID}
	verified, err := v.Verify(ctx, d.Header, d.Body)
	if err != nil {
		f.Forward.Error = err.Error()
		return f
	}
	ev := verified.Event
	f.JobID, f.Progress = ev.JobID, &ev.Progress
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(d.Body))
	if err != nil {
		f.Forward.Error = err.Error()
		return f
	}
	for k, vs := range d.Header {
		req.Header[k] = vs
	}
	req.Header.Set("User-Agent", "taskplatform-webhooks-listen")
	res, err := hc.Do(req)
	if err != nil {
		f.Forward.Error = unreachable(target, err)
		return f
	}
	_ = res.Body.Close()
	f.Forward.Status = res.StatusCode
	f.Forward.Delivered = res.StatusCode >= 200 && res.StatusCode < 300
	return f
}

// unreachable says why a POST to the receiver got no answer, without
// repeating its address as net/http's error does for every event.
func unreachable(target string, err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (is your receiver listening at " + target + "?)"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within 30 s"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// describeProgress is what an event adds to its line: the outputs delivered.
func describeProgress(p wire.Progress) string {
	total := "?"
	if p.Total != nil {
		total = fmt.Sprint(*p.Total)
	}
	return fmt.Sprintf(" %d/%s", p.Done, total)
}
