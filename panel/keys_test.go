package panel

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// The keys page shows each key's name, escaped, with a form to rename it,
// and the create form asks for one.
func TestKeysPageShowsAndRenamesNames(t *testing.T) {
	t.Parallel()
	h, db, u, cookie := signedInPanel(t)
	k, _, err := models.CreateNamedKey(context.Background(), db, u.ID, "<ci> deploys", nil, nil, "2026-09-29")
	require.NoError(t, err)
	w := do(h, http.MethodGet, "/app/keys", nil, cookie...)
	require.Equal(t, http.StatusOK, w.Code)
	body := w.Body.String()
	require.Contains(t, body, `<strong class="key-name">&lt;ci&gt; deploys</strong>`)
	require.NotContains(t, body, "<ci>")
	require.Contains(t, body, `data-api="/v1/account/keys/`+k.ID+`" data-method="PATCH"`, "a rename form")
	require.Contains(t, body, `id="name-`+k.ID+`" name="name" value="&lt;ci&gt; deploys"`)
	require.Contains(t, body, `id="key-name" name="name" maxlength="64"`, "the create form asks for a name")
}
