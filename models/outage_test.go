package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestEveryQueryReportsAnOutage: with the database gone, every query answers
// an error that Unavailable recognises — never a result, never a swallowed
// failure — so the API answers 503 with retry_after rather than a wrong
// answer or a 500.
func TestEveryQueryReportsAnOutage(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	queries := map[string]func(ctx context.Context, db *gorm.DB) error{
		"Grant": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.Grant(ctx, db, 1, contract.CreditService, 5, nil, "test")
			return err
		},
		"Available": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.Available(ctx, db, 1, contract.CreditService, now)
			return err
		},
		"Balances": func(ctx context.Context, db *gorm.DB) error { _, err := models.Balances(ctx, db, 1, now); return err },
		"CreateUser": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.CreateUser(ctx, db, "a@example.com", "")
			return err
		},
		"UserByEmail": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.UserByEmail(ctx, db, "a@example.com")
			return err
		},
		"CreateUpload": func(ctx context.Context, db *gorm.DB) error {
			return models.CreateUpload(ctx, db, &models.File{ID: models.NewID(""), UserID: 1, Data: "null"}, now)
		},
		"RegisterURL": func(ctx context.Context, db *gorm.DB) error {
			_, _, err := models.RegisterURL(
				ctx,
				db,
				&models.File{ID: models.NewID(""), UserID: 1, SourceURL: "https://example.com/a.png", Data: "null"},
				now,
			)
			return err
		},
		"FileByID": func(ctx context.Context, db *gorm.DB) error { _, err := models.FileByID(ctx, db, "f"); return err },
		"Admit": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.Admit(
				ctx,
				db,
				&models.Job{
					ID:          models.NewID("j_"),
					UserID:      1,
					Task:        "t",
					Input:       "{}",
					CreditType:  contract.CreditService,
					HeldCredits: 1,
				},
				now,
				nil,
			)
			return err
		},
		"JobByIDAny": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.JobByIDAny(ctx, db,
				"j_1")
			return err
		},
		"AddOutput": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.AddOutput(
				ctx,
				db,
				&models.File{ID: models.NewID(""), UserID: 1, JobID: "j_1", Data: "null"},
				now,
			)
			return err
		},
		"Delivered": func(ctx context.Context, db *gorm.DB) error { _, err := models.Delivered(ctx, db, "j_1"); return err },
		"Settle": func(ctx context.Context, db *gorm.DB) error {
			_, _, err := models.Settle(ctx, db, "j_1", models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
			return err
		},
		"ListJobs": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.ListJobs(ctx, db, 1, "", nil, 10)
			return err
		},
		"JobFiles": func(ctx context.Context, db *gorm.DB) error {
			_, _, err := models.JobFiles(ctx, db, "j_1", -1, 10)
			return err
		},
		"KeysOfUser":  func(ctx context.Context, db *gorm.DB) error { _, err := models.KeysOfUser(ctx, db, 1); return err },
		"SigningKeys": func(ctx context.Context, db *gorm.DB) error { _, err := models.SigningKeys(ctx, db); return err },
		"DeliveryByID": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.DeliveryByID(ctx, db, "whd_1")
			return err
		},
		"DeliveryAttempts": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.DeliveryAttempts(ctx, db, "whd_1")
			return err
		},
		"EndpointEnabled": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.EndpointEnabled(ctx, db, "whe_1")
			return err
		},
		"EnableEndpoint": func(ctx context.Context, db *gorm.DB) error { return models.EnableEndpoint(ctx, db, "whe_1") },
		"SubscribedEvents": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.SubscribedEvents(ctx, db, 1)
			return err
		},
		"SkipDelivery": func(ctx context.Context, db *gorm.DB) error { return models.SkipDelivery(ctx, db, "whd_1", "r") },
		"InsertRequestLogs": func(ctx context.Context, db *gorm.DB) error {
			return models.InsertRequestLogs(
				ctx,
				db,
				[]models.RequestLog{
					{RequestID: models.NewID("req_"), UserID: 1, Method: "GET", Path: "/", CreatedAt: now},
				},
			)
		},
		"ListRequests": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.ListRequests(ctx, db, 1, models.RequestFilter{}, nil, 10)
			return err
		},
		"Usage": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.Usage(ctx, db, 1, day0, day0.Add(time.Hour))
			return err
		},
		"Metrics": func(ctx context.Context, db *gorm.DB) error {
			_, err := models.Metrics(
				ctx,
				db,
				models.MetricsQuery{UserID: 1, Start: day0, End: day0.Add(time.Hour), CallsFrom: day0},
			)
			return err
		},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		require.NoError(t, models.Close(db))
		for name, query := range queries {
			err := query(ctx, db)
			require.Error(t, err, name)
			require.True(t, models.Unavailable(err), "%s: %v", name, err)
		}
	})
}
