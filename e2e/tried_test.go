package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// tried is what a user sees of one submit: the answer's status and error,
// the job's outcome, its result's files and warnings, and the credits of
// each type it took.
type tried struct {
	status   int
	code     string
	message  string
	outcome  any
	failure  any
	files    []image.Image
	data     []map[string]any
	warnings []map[string]any
	spent    map[string]int64
}

// balances are the account's remaining credits by type.
func (s *testStack) balances() map[string]int64 {
	bals, err := models.Balances(context.Background(), s.db, s.userID, time.Now())
	require.NoError(s.t, err)
	out := map[string]int64{}
	for _, b := range bals {
		out[b.CreditType] = b.Remaining
	}
	return out
}

// try submits body to task, waits for the job and reads what it made.
func (s *testStack) try(t *testing.T, task string, body any) tried {
	t.Helper()
	before := s.balances()
	res := s.do(http.MethodPost, "/v1/tasks/"+task, body)
	out := tried{status: res.status, spent: map[string]int64{}}
	j := res.json(t)
	if e, ok := j["error"].(map[string]any); ok {
		out.code, _ = e["code"].(string)
		out.message, _ = e["message"].(string)
		return out
	}
	id := j["job_id"].(string)
	job := s.waitTerminalWithin(id, walkWait)
	out.outcome, out.failure = job["outcome"], job["error"]
	r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	if r.status == http.StatusOK {
		rj := r.json(t)
		if sum, ok := rj["summary"].(map[string]any); ok {
			ws, _ := sum["warnings"].([]any)
			for _, w := range ws {
				out.warnings = append(out.warnings, w.(map[string]any))
			}
		}
		files, _ := rj["files"].([]any)
		for _, f := range files {
			f := f.(map[string]any)
			img, _, err := image.Decode(bytes.NewReader(download(t, f["url"].(string))))
			require.NoError(t, err)
			out.files = append(out.files, img)
			d, _ := f["data"].(map[string]any)
			out.data = append(out.data, d)
		}
	}
	after := s.balances()
	for k, v := range before {
		out.spent[k] = v - after[k]
	}
	return out
}

func (r tried) String() string {
	return fmt.Sprintf("status=%d code=%s outcome=%v failure=%v files=%d warnings=%v spent=%v data=%v msg=%q",
		r.status, r.code, r.outcome, r.failure, len(r.files), r.warnings, r.spent, r.data, r.message)
}
