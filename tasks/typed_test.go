package tasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

type onceInput struct {
	Count int `json:"count"`
}

func (onceInput) FieldSchemas() map[string]any {
	return map[string]any{"count": map[string]any{"minimum": 1, "maximum": 4, "default": 2, "description": "How many."}}
}

// onceTask notes the input struct each call receives.
type onceTask struct{ seen *[]*onceInput }

func (o onceTask) Plan(in *onceInput) Plan {
	*o.seen = append(*o.seen, in)
	return Plan{Steps: in.Count}
}

func (o onceTask) Step(_ context.Context, in *onceInput, i int) (Output, error) {
	*o.seen = append(*o.seen, in)
	return Output{Data: []byte{byte(i)}, MediaType: "application/octet-stream", Ext: "bin"}, nil
}

func (o onceTask) Quick(in *onceInput) bool {
	*o.seen = append(*o.seen, in)
	return true
}

func (o onceTask) Admit(_ context.Context, _ Env, in *onceInput) error {
	*o.seen = append(*o.seen, in)
	return nil
}

func (onceTask) AdmitErrors() []apierr.Code { return nil }

// TestInputIsDecodedOnce shows a request is decoded into the task's struct
// once: its refusal, plan, quick check, admission and steps all read the one
// value Validate made, defaults applied; a stored input read back (a step's
// activity) is decoded once again, for all its calls.
func TestInputIsDecodedOnce(t *testing.T) {
	var seen []*onceInput
	task := onceTask{seen: &seen}
	d := &Definition{Name: "test.once", Runner: Typed[onceInput](task),
		InputSchema: MustJSON(InputSchema[onceInput]("test.once input", "A count.", nil))}
	d.Refuse = Refusal(func(in *onceInput, _ map[string]ImageSize) *apierr.Error {
		seen = append(seen, in)
		return nil
	})
	in, err := d.Validate([]byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, 2, Arg[onceInput](in).Count, "the schema default")
	require.Nil(t, d.Refuse(in, nil))
	require.Equal(t, 2, d.Runner.Plan(in).Steps)
	require.True(t, IsQuick(d, in))
	require.NoError(t, d.Runner.(Admitter).Admit(context.Background(), Env{}, in))
	for i := range 2 {
		_, err := d.Runner.Step(context.Background(), in, i)
		require.NoError(t, err)
	}
	require.Len(t, seen, 7) // Validate's refusal, then each call above
	for _, v := range seen {
		require.Same(t, seen[0], v)
	}

	raw, err := json.Marshal(in)
	require.NoError(t, err)
	require.JSONEq(t, `{"count":2}`, string(raw), "an Input is stored as its fields")
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	stored, err := d.Input(fields)
	require.NoError(t, err)
	seen = nil
	d.Runner.Plan(stored)
	_, err = d.Runner.Step(context.Background(), stored, 1)
	require.NoError(t, err)
	require.Len(t, seen, 2)
	require.Same(t, seen[0], seen[1])
	require.NotSame(t, Arg[onceInput](in), seen[0])
}
