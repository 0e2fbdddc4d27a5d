package panel

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// dayBar is one day of the credits chart.
type dayBar struct {
	Day     string
	Credits int64
	Height  int // percent of the tallest day
}

// overviewData is the overview page's.
type overviewData struct {
	Balances []models.Balance
	Days     []dayBar
	Total    int64
	Jobs     []jobRow
	// Ticks are the values of the chart's axis, top first, down to 0, a
	// quarter of the top apart (the chart's grid lines).
	Ticks []int64
}

// niceCeil is the smallest of 1, 2, 5 × 10^k at or above n (n ≥ 1): the
// top of a chart's axis.
func niceCeil(n int64) int64 {
	for step := int64(1); ; step *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if m*step >= n {
				return m * step
			}
		}
	}
}

// jobRow is one job of a listing, with thumbnails of its first outputs.
type jobRow struct {
	wire.Job
	KeyID   string
	Outputs []fileView
	// More counts the outputs beyond those shown.
	More int
}

// listedOutputs is how many outputs a listing's row shows.
const listedOutputs = 4

// jobRows are the rows of jobs with their first outputs.
func (p *panel) jobRows(r *http.Request, jobs []models.Job) ([]jobRow, error) {
	ids := make([]string, len(jobs))
	for i := range jobs {
		ids[i] = jobs[i].ID
	}
	files, counts, err := models.FirstOutputs(r.Context(), p.d.DB, ids, listedOutputs)
	if err != nil {
		return nil, err
	}
	out := make([]jobRow, len(jobs))
	for i := range jobs {
		row := jobRow{Job: jobs[i].Wire(p.d.FilesBaseURL), KeyID: jobs[i].APIKeyID}
		for j := range files[jobs[i].ID] {
			row.Outputs = append(row.Outputs, viewFile(&files[jobs[i].ID][j], p.d.FilesBaseURL))
		}
		row.More = counts[jobs[i].ID] - len(row.Outputs)
		out[i] = row
	}
	return out, nil
}

func (p *panel) overview(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	now := p.now()
	bals, err := models.Balances(r.Context(), p.d.DB, u.ID, now)
	if err != nil {
		return "", "", nil, err
	}
	end := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
	start := end.AddDate(0, 0, -30)
	rows, err := models.Metrics(
		r.Context(),
		p.d.DB,
		models.MetricsQuery{UserID: u.ID, GroupBy: models.GroupDay, Start: start, End: end, CallsFrom: end},
	)
	if err != nil {
		return "", "", nil, err
	}
	perDay := map[string]int64{}
	for _, row := range rows {
		perDay[row.Group] = row.CreditsCharged
	}
	data := overviewData{Balances: bals}
	var top int64 = 1
	for d := start; d.Before(end); d = d.AddDate(0, 0, 1) {
		day := d.Format("2006-01-02")
		data.Days = append(data.Days, dayBar{Day: day, Credits: perDay[day]})
		top = max(top, perDay[day])
		data.Total += perDay[day]
	}
	step := niceCeil((top + 3) / 4)
	top = 4 * step
	data.Ticks = []int64{top, 3 * step, 2 * step, step, 0}
	for i := range data.Days {
		data.Days[i].Height = int(data.Days[i].Credits * 100 / top)
	}
	jobs, err := models.ListJobs(r.Context(), p.d.DB, u.ID, "", nil, 8)
	if err != nil {
		return "", "", nil, err
	}
	if data.Jobs, err = p.jobRows(r, jobs.Items); err != nil {
		return "", "", nil, err
	}
	return "overview", "Overview", data, nil
}

// jobsData is the jobs page's.
type jobsData struct {
	Jobs           []jobRow
	Keys           []panelapi.KeyView
	KeyID, Outcome string
	Outcomes       []string
	Next           string
}

func (p *panel) jobs(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	q := r.URL.Query()
	data := jobsData{
		KeyID:    q.Get("key"),
		Outcome:  q.Get("outcome"),
		Outcomes: append([]string{"running"}, contract.Outcomes...),
	}
	if !slices.Contains(data.Outcomes, data.Outcome) {
		data.Outcome = ""
	}
	var after *models.Position
	if raw, err := base64.RawURLEncoding.DecodeString(q.Get("after")); err == nil && len(raw) > 0 {
		if pos, err := models.ParsePosition(string(raw)); err == nil {
			after = &pos
		}
	}
	page, err := models.ListJobsByOutcome(r.Context(), p.d.DB, u.ID, data.KeyID, data.Outcome, after, 25)
	if err != nil {
		return "", "", nil, err
	}
	if data.Jobs, err = p.jobRows(r, page.Items); err != nil {
		return "", "", nil, err
	}
	if page.Next != nil {
		data.Next = base64.RawURLEncoding.EncodeToString([]byte(page.Next.String()))
	}
	if data.Keys, err = p.keyViews(r, u); err != nil {
		return "", "", nil, err
	}
	return "jobs", "Jobs", data, nil
}

// jobData is the job page's.
type jobData struct {
	Job        jobRow
	Files      []fileView
	Deliveries []deliveryRow
	Input      string
	Running    bool
	// Phase is the label beside the progress bar (jobPhase).
	Phase string
	// Error is a failed or cancelled job's error object; nil otherwise.
	Error *apierr.Error
	// Fix is what the error catalogue advises for Error's code.
	Fix string
	// Warnings are the summary's, such as an output not produced.
	Warnings []contract.Warning
}

// job is the job page; its live part (status, progress, error, outputs
// and deliveries) is also served alone at /app/jobs/{id}/live, which the
// page's script reads while the job runs.
func (p *panel) job(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	j, err := models.JobByID(r.Context(), p.d.DB, u.ID, r.PathValue("id"))
	if err != nil {
		return "", "", nil, err
	}
	files, _, err := models.JobFiles(r.Context(), p.d.DB, j.ID, -1, 100)
	if err != nil {
		return "", "", nil, err
	}
	data := jobData{
		Job:     jobRow{Job: j.Wire(p.d.FilesBaseURL), KeyID: j.APIKeyID},
		Input:   indented(j.Input),
		Running: j.Lifecycle != contract.LifecycleTerminal,
		Phase:   jobPhase(j),
	}
	if j.Error != nil {
		var e apierr.Error
		if err := json.Unmarshal([]byte(*j.Error), &e); err == nil && e.Code != "" {
			data.Error = &e
			if entry, ok := apierr.Lookup(e.Code); ok {
				data.Fix = entry.Fix
			}
		}
	}
	if j.Summary != nil {
		var sum contract.Summary
		if err := json.Unmarshal([]byte(*j.Summary), &sum); err == nil {
			data.Warnings = sum.Warnings
		}
	}
	for i := range files {
		data.Files = append(data.Files, viewFile(&files[i], p.d.FilesBaseURL))
	}
	if data.Deliveries, _, err = p.deliveries(r, models.DeliveryQuery{UserID: u.ID, JobID: j.ID, Limit: 50}); err != nil {
		return "", "", nil, err
	}
	return "job", "Job " + j.ID, data, nil
}

// jobPhase is the label beside a job's progress: the phase the API
// answers while the job waits or runs and once it succeeded ("done"); for a
// failed or cancelled job, how it ended and in which phase ("failed during
// render", "cancelled while queued"), which the API's "done" would hide.
func jobPhase(j *models.Job) string {
	if j.Lifecycle != contract.LifecycleTerminal || j.Outcome == nil || *j.Outcome == contract.OutcomeSucceeded {
		return j.PublicPhase()
	}
	switch j.Phase {
	case "":
		return *j.Outcome
	case contract.LifecycleQueued:
		return *j.Outcome + " while queued"
	}
	return *j.Outcome + " during " + j.Phase
}

// deliveryRow is one delivery of the log: its view, with the body sent.
type deliveryRow struct {
	panelapi.DeliveryView
	// Payload is the body sent, indented.
	Payload string
}

// deliveries is a page of the delivery log with attempts.
func (p *panel) deliveries(r *http.Request, q models.DeliveryQuery) ([]deliveryRow, *models.Position, error) {
	page, err := models.ListDeliveries(r.Context(), p.d.DB, q)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(page.Items))
	for i, d := range page.Items {
		ids[i] = d.ID
	}
	attempts, err := models.AttemptsOf(r.Context(), p.d.DB, ids)
	if err != nil {
		return nil, nil, err
	}
	out := make([]deliveryRow, len(page.Items))
	for i := range page.Items {
		d := &page.Items[i]
		out[i] = deliveryRow{DeliveryView: panelapi.DeliveryViewOf(d, attempts[d.ID]), Payload: indented(d.Body)}
	}
	return out, page.Next, nil
}

func (p *panel) keyViews(r *http.Request, u *models.User) ([]panelapi.KeyView, error) {
	keys, err := models.KeysOfUser(r.Context(), p.d.DB, u.ID)
	if err != nil {
		return nil, err
	}
	now := p.now()
	out := make([]panelapi.KeyView, len(keys))
	for i := range keys {
		k := &keys[i]
		out[i] = panelapi.KeyView{
			ID:        k.ID,
			Name:      panelapi.KeyName(k.Name),
			Prefix:    k.Hint,
			Scopes:    strings.Split(k.Scopes, ","),
			State:     panelapi.KeyState(k, now),
			ExpiresAt: k.ExpiresAt,
			RevokedAt: k.RevokedAt,
			CreatedAt: k.CreatedAt,
		}
	}
	slices.Reverse(out)
	return out, nil
}

// keysData is the keys page's: the keys, and the spend limits of the
// account and its keys with what they can be set to.
type keysData struct {
	Keys        []panelapi.KeyView
	Scopes      []string
	Limits      []panelapi.SpendLimitView
	Periods     []string
	CreditTypes []string
}

func (p *panel) keys(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	keys, err := p.keyViews(r, u)
	if err != nil {
		return "", "", nil, err
	}
	limits, err := models.SpendLimits(r.Context(), p.d.DB, u.ID, p.now())
	if err != nil {
		return "", "", nil, err
	}
	views := make([]panelapi.SpendLimitView, len(limits))
	for i, l := range limits {
		views[i] = panelapi.SpendLimitViewOf(l)
	}
	return "keys", "API keys", keysData{Keys: keys, Scopes: models.AllScopes, Limits: views,
		Periods: p.d.Catalogue.VocabValues("spend_period"), CreditTypes: p.d.Catalogue.VocabValues("credit_type")}, nil
}

// webhooksData is the webhooks page's.
type webhooksData struct {
	Endpoints []panelapi.EndpointView
	Events    []string
	// TestKinds are the kinds a test event is sent as: ping first, then
	// every event of the vocabulary webhook_event.
	TestKinds  []string
	Statuses   []string
	Deliveries []deliveryRow
	Filter     map[string]string
	// Next is the cursor of the next older page; Paged says this page is
	// not the newest.
	Next  string
	Paged bool
}

func (p *panel) webhooks(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	eps, err := models.EndpointsOfUser(r.Context(), p.d.DB, u.ID)
	if err != nil {
		return "", "", nil, err
	}
	// ping is sent on request (a test event), never subscribed to; the
	// delivery log's filter offers it on its own.
	events := slices.DeleteFunc(slices.Clone(p.d.Catalogue.VocabValues("webhook_event")),
		func(e string) bool { return e == contract.EventPing })
	data := webhooksData{Events: events, TestKinds: append([]string{contract.EventPing}, events...),
		Filter: map[string]string{},
		Statuses: []string{
			models.DeliveryPending,
			models.DeliveryDelivered,
			models.DeliveryFailed,
			models.DeliverySkipped,
		}}
	for i := range eps {
		ep := &eps[i]
		v := panelapi.EndpointView{
			ID:        ep.ID,
			URL:       ep.URL,
			Events:    strings.Split(ep.Events, ","),
			Disabled:  ep.Disabled,
			Failures:  ep.Failures,
			CreatedAt: ep.CreatedAt,
		}
		if ep.DisabledReason != "" {
			v.DisabledReason = &ep.DisabledReason
		}
		data.Endpoints = append(data.Endpoints, v)
	}
	q := models.DeliveryQuery{UserID: u.ID, Limit: 25}
	for _, f := range []struct {
		name string
		to   *string
	}{{"event", &q.Event}, {"status", &q.Status}, {"endpoint", &q.EndpointID}, {"job", &q.JobID}} {
		*f.to = r.URL.Query().Get(f.name)
		data.Filter[f.name] = *f.to
	}
	for _, f := range []struct {
		name string
		to   **time.Time
	}{{"start", &q.Start}, {"end", &q.End}} {
		v := r.URL.Query().Get(f.name)
		data.Filter[f.name] = v
		if t, err := time.ParseInLocation("2006-01-02T15:04", v, time.UTC); err == nil {
			*f.to = &t
		}
	}
	if raw, err := base64.RawURLEncoding.DecodeString(r.URL.Query().Get("after")); err == nil && len(raw) > 0 {
		if pos, err := models.ParsePosition(string(raw)); err == nil {
			q.After = &pos
			data.Paged = true
		}
	}
	var next *models.Position
	if data.Deliveries, next, err = p.deliveries(r, q); err != nil {
		return "", "", nil, err
	}
	if next != nil {
		data.Next = base64.RawURLEncoding.EncodeToString([]byte(next.String()))
	}
	return "webhooks", "Webhooks", data, nil
}

// filesData is the files page's.
type filesData struct {
	Kind  string
	Kinds []string
	Files []fileView
}

func (p *panel) files(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	kind := r.URL.Query().Get("kind")
	if kind != "art" {
		kind = "file"
	}
	page, err := models.ListFiles(
		r.Context(),
		p.d.DB,
		models.FileQuery{UserID: u.ID, Outputs: kind == "art", Limit: 60},
	)
	if err != nil {
		return "", "", nil, err
	}
	data := filesData{Kind: kind, Kinds: []string{"file", "art"}}
	for i := range page.Items {
		data.Files = append(data.Files, viewFile(&page.Items[i], p.d.FilesBaseURL))
	}
	return "files", "Files", data, nil
}

// shortTime writes a time for a table cell.
func shortTime(t any) string {
	switch v := t.(type) {
	case time.Time:
		return v.UTC().Format("2006-01-02 15:04:05")
	case *time.Time:
		if v == nil {
			return "—"
		}
		return v.UTC().Format("2006-01-02 15:04:05")
	}
	return fmt.Sprint(t)
}
