package models_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestPublicPhase(t *testing.T) {
	tests := []struct {
		lifecycle, phase, want string
	}{
		{contract.LifecycleQueued, "queued", "queued"},
		{contract.LifecycleQueued, "rendering", "queued"},
		{contract.LifecycleRunning, "rendering", "rendering"},
		{contract.LifecycleRunning, "", "running"},
		{contract.LifecycleTerminal, "rendering", "done"},
	}
	for _, tt := range tests {
		j := &models.Job{Lifecycle: tt.lifecycle, Phase: tt.phase}
		require.Equal(t, tt.want, j.PublicPhase(), "%s/%q", tt.lifecycle, tt.phase)
	}
}

func TestFileAddressAndHandle(t *testing.T) {
	const base = "https://files.example.com"
	tests := []struct {
		name          string
		file          models.File
		url, handle   string
		width, height int
		sized         bool
	}{
		{name: "output png", file: models.File{ID: "f1", JobID: "j_1", MediaType: "image/png", Data: `{"index":0}`},
			url: base + "/files/f1.png", handle: "art:f1"},
		{
			name:   "upload jpeg with its size",
			file:   models.File{ID: "f2", MediaType: "image/jpeg", Data: `{"width":640,"height":480}`},
			url:    base + "/files/f2.jpg",
			handle: "file:f2",
			width:  640,
			height: 480,
			sized:  true,
		},
		{name: "output svg", file: models.File{ID: "f3", JobID: "j_1", MediaType: "image/svg+xml", Data: "null"},
			url: base + "/files/f3.svg", handle: "art:f3"},
		{name: "unknown type", file: models.File{ID: "f4", MediaType: "application/x-thing"},
			url: base + "/files/f4.bin", handle: "file:f4"},
		{name: "registered URL", file: models.File{ID: "f5", SourceURL: "https://images.example.org/a.png"},
			url: "https://images.example.org/a.png", handle: "file:f5"},
		{
			name:   "a zero size is unknown",
			file:   models.File{ID: "f6", MediaType: "image/png", Data: `{"width":0,"height":10}`},
			url:    base + "/files/f6.png",
			handle: "file:f6",
		},
		{name: "unreadable data", file: models.File{ID: "f7", MediaType: "image/png", Data: `{`},
			url: base + "/files/f7.png", handle: "file:f7"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.url, tt.file.URL(base), tt.name)
		require.Equal(t, tt.handle, tt.file.Handle(), tt.name)
		w, h, ok := tt.file.ImageSize()
		require.Equal(t, []any{tt.width, tt.height, tt.sized}, []any{w, h, ok}, tt.name)
	}
}

func TestJobRowIsWhatTheAdmitWrites(t *testing.T) {
	in := contract.JobInput{
		JobID:               "j_1",
		Task:                "pattern.generate",
		UserID:              7,
		APIKeyID:            "key_1",
		Input:               json.RawMessage(`{"count":2}`),
		CreditType:          contract.CreditService,
		HeldCredits:         4,
		PricePerOutput:      2,
		StartTimeoutSeconds: 30,
		WebhookURL:          "https://h.example.com",
		RequestID:           "req_1",
		ServiceVersion:      "2025-01-01",
	}
	require.Equal(
		t,
		&models.Job{
			ID:                  "j_1",
			UserID:              7,
			APIKeyID:            "key_1",
			Task:                "pattern.generate",
			Input:               `{"count":2}`,
			CreditType:          contract.CreditService,
			HeldCredits:         4,
			PricePerOutput:      2,
			StartTimeoutSeconds: 30,
			WebhookURL:          "https://h.example.com",
			RequestID:           "req_1",
			ServiceVersion:      "2025-01-01",
			Phase:               "queued",
		},
		models.JobRow(in),
	)
}

func TestAdmitRefusalSaysWhatIsMissing(t *testing.T) {
	err := error(&models.AdmitRefusal{Required: 5, Balance: 4})
	require.Equal(t, "insufficient credits: required 5, balance 4", err.Error())
}

func TestPlans(t *testing.T) {
	tests := []struct {
		plan      string
		api       bool
		category  string
		allowed   bool
		knownPlan bool
	}{
		{models.PlanStandard, true, "video", true, true},
		{models.PlanStarter, true, "video", false, true},
		{models.PlanStarter, true, "photoshoots", false, true},
		{models.PlanStarter, true, "design_generation", true, true},
		{models.PlanAppOnly, false, "design_generation", true, true},
		{"no_such_plan", false, "design_generation", true, false},
	}
	for _, tt := range tests {
		p := models.PlanOf(tt.plan)
		require.Equal(t, tt.api, p.APIAccess, tt.plan)
		require.Equal(t, tt.allowed, p.AllowsCategory(tt.category), "%s runs %s", tt.plan, tt.category)
		_, known := models.Plans[tt.plan]
		require.Equal(t, tt.knownPlan, known)
	}
}

// TestUnavailable sorts errors into "the database could not be used" (the
// caller answers 503 and may retry) and everything else.
func TestUnavailable(t *testing.T) {
	closed := sql.OpenDB(fixedConnector{})
	require.NoError(t, closed.Close())
	poolClosed := closed.PingContext(context.Background())
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"not found", models.ErrNotFound, false},
		{"a query error", &pgconn.PgError{Code: "23505"}, false},
		{"a plain error", errors.New("boom"), false},
		{"cannot connect", &pgconn.ConnectError{}, true},
		{"network", fmt.Errorf("query: %w", &net.OpError{Op: "dial", Err: errors.New("refused")}), true},
		{"bad connection", fmt.Errorf("exec: %w", driver.ErrBadConn), true},
		{"connection done", sql.ErrConnDone, true},
		{"pool closed", poolClosed, true},
		{"deadline", fmt.Errorf("select: %w", context.DeadlineExceeded), true},
		{"connection exception", &pgconn.PgError{Code: "08006"}, true},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"cannot connect now", &pgconn.PgError{Code: "57P03"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, models.Unavailable(tt.err), tt.name)
	}
}

// fixedConnector is a connector whose pool the test closes at once.
type fixedConnector struct{}

func (fixedConnector) Connect(context.Context) (driver.Conn, error) { return nil, driver.ErrBadConn }
func (fixedConnector) Driver() driver.Driver                        { return nil }

func TestPingAndClose(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		require.NoError(t, models.Ping(ctx, db))
		require.NoError(t, models.Close(db))
		err := models.Ping(ctx, db)
		require.Error(t, err)
		require.True(t, models.Unavailable(err), "a closed pool is unavailable: %v", err)
	})
}

func TestEndpointSubscriptions(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := accountFor(t, db)
		none, err := models.SubscribedEvents(ctx, db, u.ID)
		require.NoError(t, err)
		require.Empty(t, none)

		add := func(events string, disabled bool) *models.WebhookEndpoint {
			ep := &models.WebhookEndpoint{
				ID:       models.NewID("whe_"),
				UserID:   u.ID,
				URL:      "https://hooks.example.com/" + models.NewID(""),
				Events:   events,
				Failures: 3,
			}
			if disabled {
				ep.Disabled, ep.DisabledReason, ep.Failures = true, "20 failed deliveries", 20
			}
			require.NoError(t, db.Create(ep).Error)
			return ep
		}
		add("job.succeeded, job.progress", false)
		add("job.progress,job.failed,", false)
		off := add("job.started", true)
		add("job.cancelled", false)
		other := accountFor(t, db)
		require.NoError(
			t,
			db.Create(
				&models.WebhookEndpoint{
					ID:     models.NewID("whe_"),
					UserID: other.ID,
					URL:    "https://x.example.com",
					Events: "job.started",
				},
			).Error,
		)

		events, err := models.SubscribedEvents(ctx, db, u.ID)
		require.NoError(t, err)
		require.Equal(
			t,
			[]string{"job.cancelled", "job.failed", "job.progress", "job.succeeded"},
			events,
			"enabled endpoints' events, once each, sorted",
		)

		enabled, err := models.EndpointEnabled(ctx, db, off.ID)
		require.NoError(t, err)
		require.False(t, enabled)
		require.NoError(t, models.EnableEndpoint(ctx, db, off.ID))
		var row models.WebhookEndpoint
		require.NoError(t, db.Take(&row, "id = ?", off.ID).Error)
		require.Equal(
			t,
			models.WebhookEndpoint{
				ID:        off.ID,
				UserID:    u.ID,
				URL:       off.URL,
				Events:    "job.started",
				CreatedAt: row.CreatedAt,
			},
			row,
			"enabled again, reason and failures cleared",
		)
		enabled, err = models.EndpointEnabled(ctx, db, off.ID)
		require.NoError(t, err)
		require.True(t, enabled)
		events, err = models.SubscribedEvents(ctx, db, u.ID)
		require.NoError(t, err)
		require.Contains(t, events, "job.started")

		require.ErrorIs(t, models.EnableEndpoint(ctx, db, "whe_nope"), models.ErrNotFound)
		enabled, err = models.EndpointEnabled(ctx, db, "whe_nope")
		require.NoError(t, err)
		require.False(t, enabled, "a removed endpoint is not enabled")
	})
}

func TestSkipDelivery(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		pending := newDelivery(7)
		require.NoError(t, models.CreateDelivery(ctx, db, pending))
		next := time.Now().Add(time.Minute)
		require.NoError(
			t,
			models.RecordAttempt(
				ctx,
				db,
				pending.ID,
				models.WebhookAttempt{Attempt: 1, At: time.Now(), StatusCode: 503},
				models.DeliveryPending,
				&next,
			),
		)
		delivered := newDelivery(7)
		require.NoError(t, models.CreateDelivery(ctx, db, delivered))
		require.NoError(
			t,
			models.RecordAttempt(
				ctx,
				db,
				delivered.ID,
				models.WebhookAttempt{Attempt: 1, At: time.Now(), StatusCode: 200},
				models.DeliveryDelivered,
				nil,
			),
		)

		for _, d := range []*models.WebhookDelivery{pending, delivered} {
			require.NoError(t, models.SkipDelivery(ctx, db, d.ID, "endpoint disabled: not sent"))
		}
		got, err := models.DeliveryByID(ctx, db, pending.ID)
		require.NoError(t, err)
		require.Equal(t, models.DeliverySkipped, got.Status)
		require.Equal(t, "endpoint disabled: not sent", got.LastError)
		require.Nil(t, got.NextAttemptAt, "no next attempt")
		got, err = models.DeliveryByID(ctx, db, delivered.ID)
		require.NoError(t, err)
		require.Equal(t, models.DeliveryDelivered, got.Status, "a finished delivery is left as it is")
		require.Empty(t, got.LastError)
	})
}
