package middleware

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

func TestContractDecisions(t *testing.T) {
	k := Dated{version: "2026-09-29"}
	require.Equal(t, "2026-09-29", k.Version())
	require.True(t, k.AtLeast("2026-01-15"))
	require.True(t, k.AtLeast("2026-09-29"))
	require.False(t, k.AtLeast("2027-01-01"))
	require.Contains(t, contract.Versions, contract.CurrentVersion, "the current version is a known one")
}

func TestDatedErrorObject(t *testing.T) {
	t.Parallel()
	for v, top := range map[string]bool{"": true, contract.FirstVersion: false, contract.VersionCreditsAtTop: true,
		"2026-11-17": true} {
		e := apierr.New(apierr.InsufficientCredits, "").WithCredits(3, 0)
		Dated{version: v}.ErrorObject(e)
		require.Equal(t, top, e.Required != nil, v)
		require.Equal(t, top, e.Balance != nil, v)
		require.NotNil(t, e.Ctx.Required, v)
	}
}
