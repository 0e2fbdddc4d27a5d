package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/telemetry"
)

// Dial connects to Temporal with the SDK logging through zap, and
// reporting metrics and spans through tel (nil: none); the workers made
// from the client trace workflows and activities too. It fails fast when the
// frontend is down.
func Dial(
	ctx context.Context,
	address, namespace string,
	log *zap.Logger,
	tel *telemetry.Telemetry,
) (client.Client, error) {
	opts, err := tel.ClientOptions(client.Options{HostPort: address, Namespace: namespace, Logger: NewLogger(log)})
	if err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := client.DialContext(dctx, opts)
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", address, err)
	}
	return c, nil
}

// RegisterSearchAttributes adds the job search attributes to the namespace
// (operators filter jobs by task, account and outcome in the Temporal UI).
// Attributes already present are fine.
func RegisterSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	attrs := map[string]enumspb.IndexedValueType{}
	for _, k := range jobstart.SearchAttributes {
		attrs[k.GetName()] = enumspb.INDEXED_VALUE_TYPE_KEYWORD
	}
	_, err := c.OperatorService().
		AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: attrs})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("register search attributes: %w", err)
	}
	return nil
}
