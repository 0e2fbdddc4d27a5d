package panel

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// signedInPanel is a panel with its user signed in: the cookie header pair
// to send and the database.
func signedInPanel(t *testing.T, tweak ...func(*api.Deps)) (http.Handler, *gorm.DB, *models.User, []string) {
	t.Helper()
	return signedInPanelDrawing(t, "", tweak...)
}

// signedInPanelDrawing is signedInPanel drawing PDF previews with the
// pdftoppm program at that path ("": none).
func signedInPanelDrawing(
	t *testing.T,
	pdftoppm string,
	tweak ...func(*api.Deps),
) (http.Handler, *gorm.DB, *models.User, []string) {
	t.Helper()
	var db *gorm.DB
	h, u := newPanelDrawing(t, pdftoppm, append(tweak, func(d *api.Deps) { db = d.DB })...)
	w := do(h, http.MethodPost, "/app/sign-in", url.Values{"email": {"ada@example.com"}, "password": {password}})
	require.Equal(t, http.StatusSeeOther, w.Code, w.Body.String())
	return h, db, u, []string{"Cookie", middleware.SessionCookie + "=" + sessionCookie(w).Value}
}

// jobOf writes a job row of u with done of total outputs delivered.
func jobOf(
	t *testing.T,
	db *gorm.DB,
	u *models.User,
	lifecycle, outcome string,
	done, total int,
	errObj, summary any,
) string {
	t.Helper()
	j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.stripes", Input: "{}", Lifecycle: lifecycle,
		ProgressDone: done, ProgressTotal: &total, Phase: "rendering", CreditType: contract.CreditService,
		CreatedAt: time.Now().UTC()}
	if outcome != "" {
		j.Outcome = &outcome
	}
	stored := func(v any) *string {
		if v == nil {
			return nil
		}
		raw, err := json.Marshal(v)
		require.NoError(t, err)
		s := string(raw)
		return &s
	}
	j.Error, j.Summary = stored(errObj), stored(summary)
	require.NoError(t, db.Create(j).Error)
	for i := range done {
		require.NoError(
			t,
			db.Create(&models.File{ID: models.NewID(""), UserID: u.ID, JobID: j.ID, Index: i, Task: j.Task,
				MediaType: "image/png", BlobKey: fmt.Sprintf("k%d", i), Size: 1}).Error,
		)
	}
	return j.ID
}

// The job page says what a user needs of a job: no error box when there
// is no error, a failed or cancelled job's message, code and docs link
// (never the raw error object), what was delivered of how many, and the
// warnings of outputs not produced.
func TestJobPageTellsTheTruthAboutAJob(t *testing.T) {
	t.Parallel()
	h, db, u, cookie := signedInPanel(t)
	unreachable := apierr.New(apierr.ProcessingFailed, "The image at images[0] could not be fetched: the connection "+
		"was refused.").
		WithField("images[0]")
	field := "images[1]"
	summary := contract.Summary{
		Requested: 3,
		Delivered: 2,
		Warnings: []contract.Warning{{Code: "output_not_produced", Field: &field,
			Message: "The image at images[1] answered 404."}},
	}
	tests := []struct {
		name    string
		id      string
		shows   []string
		hides   []string
		outputs int
	}{
		{"succeeded", jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 3, 3, nil, nil),
			[]string{"3 of 3 outputs delivered", "succeeded", `<span id="job-phase" class="muted">done</span>`},
			[]string{"null", `class="alert"`, "Cancel job"}, 3},
		{"running", jobOf(t, db, u, contract.LifecycleRunning, "", 3, 12, nil, nil),
			[]string{
				"3 of 12 outputs delivered",
				`data-running="true"`,
				"Cancel job",
			}, []string{"null", `class="alert"`}, 3},
		{"failed", jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeFailed, 0, 1, unreachable, nil),
			[]string{
				"0 of 1 output delivered",
				`<span id="job-phase" class="muted">failed during rendering</span>`,
				"The image at images[0] could not be fetched: the connection was refused.",
				"processing_failed",
				`href="/v1/errors#processing_failed"`,
				"images[0]",
			},
			[]string{`{&#34;code&#34;`, `"code"`, "null"}, 0},
		{
			"cancelled with outputs",
			jobOf(
				t,
				db,
				u,
				contract.LifecycleTerminal,
				contract.OutcomeCancelled,
				3,
				12,
				apierr.New(apierr.Cancelled, ""),
				nil,
			),
			[]string{
				"3 of 12 outputs delivered",
				`<span id="job-phase" class="muted">cancelled during rendering</span>`,
				`href="/v1/errors#cancelled"`,
				"cancelled",
			},
			[]string{`&#34;code&#34;`, "Cancel job"},
			3,
		},
		{
			"succeeded with an output not produced",
			jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 2, 3, nil, summary),
			[]string{
				"2 of 3 outputs delivered",
				"The image at images[1] answered 404.",
				"output_not_produced",
			},
			[]string{`class="alert"`},
			2,
		},
	}
	figures := regexp.MustCompile(`<figure class="file"`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/app/jobs/" + tc.id, "/app/jobs/" + tc.id + "/live"} {
				w := do(h, http.MethodGet, path, nil, cookie...)
				require.Equal(t, http.StatusOK, w.Code, w.Body.String())
				body := w.Body.String()
				for _, s := range tc.shows {
					require.Contains(t, body, s, path)
				}
				for _, s := range tc.hides {
					require.NotContains(t, body, s, path)
				}
				require.Len(t, figures.FindAllString(body, -1), tc.outputs, "%s shows every delivered output", path)
				require.Equal(
					t,
					strings.HasSuffix(path, "/live"),
					!strings.Contains(body, "<html"),
					"%s: the live part comes alone",
					path,
				)
			}
		})
	}
	other, err := models.CreateUser(context.Background(), db, "bob@example.com", models.PlanStandard)
	require.NoError(t, err)
	foreign := jobOf(t, db, other, contract.LifecycleRunning, "", 0, 1, nil, nil)
	require.Equal(t, http.StatusNotFound, do(h, http.MethodGet, "/app/jobs/"+foreign+"/live", nil, cookie...).Code)
	require.Equal(
		t,
		http.StatusUnauthorized,
		do(h, http.MethodGet, "/app/jobs/"+foreign+"/live", nil).Code,
		"no session: the script reloads",
	)
}
