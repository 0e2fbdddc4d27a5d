package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/telemetry"
	"github.com/taskplatform/taskplatform/worker"
)

// stackTemporal is the package's Temporal client, or, with tel, a client
// on the same connection that reports through tel (metrics handler and
// tracing interceptor, as worker.Dial sets them in the binary).
func stackTemporal(t testing.TB, tel *telemetry.Telemetry) client.Client {
	t.Helper()
	c := temporalClient(t)
	if tel == nil {
		return c
	}
	opts, err := tel.ClientOptions(client.Options{Namespace: "default", Logger: worker.NewLogger(nil)})
	require.NoError(t, err)
	traced, err := client.NewClientFromExisting(c, opts)
	require.NoError(t, err)
	t.Cleanup(traced.Close)
	return traced
}

// spanTree is the spans of one test by span id.
type spanTree map[trace.SpanID]tracetest.SpanStub

// named is the spans called name.
func (st spanTree) named(name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range st {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// path is the names from s up to its root, following parent links; it
// stops at a parent that was not recorded.
func (st spanTree) path(s tracetest.SpanStub) []string {
	names := []string{s.Name}
	for s.Parent.IsValid() {
		p, ok := st[s.Parent.SpanID()]
		if !ok {
			return append(names, "(missing parent)")
		}
		names, s = append(names, p.Name), p
	}
	return names
}

// attr is a span's string attribute.
func attr(s tracetest.SpanStub, key string) string {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}

// TestOneJobIsOneTrace submits a job with a webhook and follows its trace:
// the HTTP server span of the submit is the root; the admit, the job
// workflow, its activities, the delivery workflow started for the terminal
// event, its Deliver activity and the POST to the receiver all hang from
// it, in one trace, each span's parent recorded.
func TestOneJobIsOneTrace(t *testing.T) {
	t.Parallel()
	exp := tracetest.NewInMemoryExporter()
	tel, err := telemetry.New(context.Background(), telemetry.Options{SpanExporter: exp})
	require.NoError(t, err)
	t.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool(), telemetry: tel})

	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(rcv.srv.URL+"/hook"),
		pattern(2),
	)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	jobID := res.json(t)["job_id"].(string)
	require.Equal(t, "succeeded", s.waitTerminal(jobID)["outcome"])
	require.Eventually(
		t,
		func() bool { return len(rcv.deliveries()) == 1 },
		30*time.Second,
		50*time.Millisecond,
		"the receiver gets job.succeeded",
	)
	deliveryID := rcv.deliveries()[0].header.Get("X-Service-Request-Id")

	// Workflow spans end when their workflow returns, after the receiver
	// answered.
	spans := spanTree{}
	require.Eventually(t, func() bool {
		spans = spanTree{}
		for _, sp := range exp.GetSpans() {
			spans[sp.SpanContext.SpanID()] = sp
		}
		return len(spans.named("RunWorkflow:WebhookDeliveryWorkflow")) == 1 &&
			len(spans.named("RunWorkflow:JobWorkflow")) == 1
	}, patience, 50*time.Millisecond, "both workflows' spans end")

	submits := spans.named("POST /v1/tasks/:name")
	require.Len(t, submits, 1, "one server span for the submit")
	root := submits[0]
	require.Equal(t, trace.SpanKindServer, root.SpanKind)
	require.False(t, root.Parent.IsValid(), "the submit starts the trace")
	traceID := root.SpanContext.TraceID()

	var dump strings.Builder
	for _, sp := range spans {
		if sp.SpanContext.TraceID() == traceID {
			fmt.Fprintln(&dump, strings.Join(spans.path(sp), " < "))
		}
	}
	// Every span of the job's and the delivery's workflows is in the
	// submit's trace, and reaches the submit through recorded parents.
	var ofJob int
	for _, sp := range spans {
		if id := attr(sp, "temporalWorkflowID"); id != jobID && id != deliveryID {
			continue
		}
		ofJob++
		require.Equal(t, traceID, sp.SpanContext.TraceID(), "%s is in the job's trace:\n%s", sp.Name, dump.String())
		p := spans.path(sp)
		require.Equal(t, root.Name, p[len(p)-1], "%s reaches the submit: %v", sp.Name, p)
	}
	require.Greater(t, ofJob, 8, "the job's spans:\n%s", dump.String())

	// The chain, link by link: each span's parent. The admit's local
	// activity holds the credits; each output is one RunStep; the
	// settlement starts the delivery workflow of the terminal event.
	parents := []struct{ span, parent string }{
		{"UpdateWithStartWorkflow:admit", "POST /v1/tasks/:name"},
		{"HandleUpdate:admit", "UpdateWithStartWorkflow:admit"},
		{"StartActivity:HoldCredits", "HandleUpdate:admit"},
		{"RunActivity:HoldCredits", "StartActivity:HoldCredits"},
		{"RunWorkflow:JobWorkflow", "UpdateWithStartWorkflow:admit"},
		{"StartActivity:Settle", "RunWorkflow:JobWorkflow"},
		{"RunActivity:Settle", "StartActivity:Settle"},
		{"StartWorkflow:WebhookDeliveryWorkflow", "RunActivity:Settle"},
		{"RunWorkflow:WebhookDeliveryWorkflow", "StartWorkflow:WebhookDeliveryWorkflow"},
		{"StartActivity:Deliver", "RunWorkflow:WebhookDeliveryWorkflow"},
		{"RunActivity:Deliver", "StartActivity:Deliver"},
	}
	for _, link := range parents {
		got := spans.named(link.span)
		require.Len(t, got, 1, "one %s span:\n%s", link.span, dump.String())
		require.Equal(t, link.parent, spans.path(got[0])[1], "%s's parent", link.span)
	}
	steps := spans.named("RunActivity:RunStep")
	require.Len(t, steps, 2, "one activity span per output:\n%s", dump.String())
	for _, st := range steps {
		require.Equal(
			t,
			[]string{"RunActivity:RunStep", "StartActivity:RunStep", "RunWorkflow:JobWorkflow"},
			spans.path(st)[:3],
		)
	}
	var posts []tracetest.SpanStub
	for _, sp := range spans {
		if sp.SpanKind == trace.SpanKindClient && spans.path(sp)[1] == "RunActivity:Deliver" {
			posts = append(posts, sp)
		}
	}
	require.Len(t, posts, 1, "the webhook POST has a client span under Deliver:\n%s", dump.String())
	require.Equal(t, "200", attr(posts[0], "http.response.status_code"))
	require.Empty(t, rcv.deliveries()[0].header.Get("Traceparent"), "the trace stays inside the service")
}
