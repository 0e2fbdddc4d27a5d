package enginehooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/enginehooks"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestAWebhookReachesTheStepOnAnyProcess: the address a step gets is the
// same in every attempt, only it is taken, an ended state is final, and a
// reset keeps the address.
func TestAWebhookReachesTheStepOnAnyProcess(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			db := testenv.DB(t, b)
			ctx := context.Background()
			s, err := enginehooks.NewStore(func() *gorm.DB { return db }, "http://api.internal:8080/")
			require.NoError(t, err)
			addr, err := s.Expect(ctx, "p1")
			require.NoError(t, err)
			again, err := s.Expect(ctx, "p1")
			require.NoError(t, err)
			require.Equal(t, addr, again, "every attempt gives the engine the same address")
			token, ok := strings.CutPrefix(addr, "http://api.internal:8080/engines/predictions/p1/")
			require.True(t, ok, addr)
			require.GreaterOrEqual(t, len(token), 32, "unguessable")

			got, err := s.Latest(ctx, "p1")
			require.NoError(t, err)
			require.Nil(t, got, "nothing before the first webhook")
			require.ErrorIs(t, enginehooks.Record(ctx, db, "p1", token+"x", []byte(`{"status":"failed"}`)),
				enginehooks.ErrUnknown)
			require.ErrorIs(t, enginehooks.Record(ctx, db, "p2", token, []byte(`{"status":"failed"}`)),
				enginehooks.ErrUnknown)
			require.ErrorIs(t, enginehooks.Record(ctx, db, "p1", token, []byte(`[1]`)), enginehooks.ErrBadBody)

			long := `{"status":"processing","logs":"` + strings.Repeat("a", 10000) + `end"}`
			require.NoError(t, enginehooks.Record(ctx, db, "p1", token, []byte(long)))
			got, err = s.Latest(ctx, "p1")
			require.NoError(t, err)
			var p struct{ Status, Logs string }
			require.NoError(t, json.Unmarshal(got, &p))
			require.Equal(t, "processing", p.Status)
			require.Len(t, p.Logs, 4096, "the end of a chatty model's logs is kept")
			require.True(t, strings.HasSuffix(p.Logs, "aend"))
			require.NoError(t, enginehooks.Record(ctx, db, "p1", token, []byte(`{"status":"succeeded","output":"u"}`)))
			require.NoError(t, enginehooks.Record(ctx, db, "p1", token, []byte(`{"status":"processing"}`)))
			got, err = s.Latest(ctx, "p1")
			require.NoError(t, err)
			require.JSONEq(t, `{"status":"succeeded","output":"u"}`, string(got), "a late webhook does not undo the end")

			require.NoError(t, s.Reset(ctx, "p1"))
			got, err = s.Latest(ctx, "p1")
			require.NoError(t, err)
			require.Nil(t, got)
			require.NoError(t, enginehooks.Record(ctx, db, "p1", token, []byte(`{"status":"starting"}`)),
				"the address holds after a reset")

			require.NoError(t, s.Forget(ctx, "p1"))
			require.ErrorIs(t, enginehooks.Record(ctx, db, "p1", token, []byte(`{"status":"succeeded"}`)),
				enginehooks.ErrUnknown, "forgotten: answered 404, so the engine stops retrying")
		})
	}
}
