package models

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// DefaultEndpointEvents are what an endpoint left at its defaults receives:
// the terminal events.
const DefaultEndpointEvents = "job.succeeded,job.failed,job.cancelled"

// ErrTooManyEndpoints is an endpoint refused because the account already
// has contract.Limits.WebhookEndpoints.MaxPerAccount of them.
var ErrTooManyEndpoints = errors.New("the account has as many webhook endpoints as it may")

// EndpointExists is an endpoint refused because the account already has
// endpoint ID at the same URL.
type EndpointExists struct{ ID string }

// Error implements error.
func (e *EndpointExists) Error() string {
	return "the account already has endpoint " + e.ID + " at this url"
}

// CreateEndpoint registers a webhook endpoint of a user; ep.ID is set when
// empty and an empty Events means DefaultEndpointEvents. The caller has
// checked the URL and the events. Under the user's lock it refuses an
// account at its endpoint limit (ErrTooManyEndpoints) and a URL the account
// has an endpoint at already (*EndpointExists).
func CreateEndpoint(ctx context.Context, db *gorm.DB, ep *WebhookEndpoint) error {
	if ep.ID == "" {
		ep.ID = NewID("whe_")
	}
	if ep.Events == "" {
		ep.Events = DefaultEndpointEvents
	}
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		others, err := lockEndpoints(tx, ep.UserID, ep.URL, "")
		if err != nil {
			return err
		}
		if others >= contract.DefaultLimits().WebhookEndpoints.MaxPerAccount {
			return ErrTooManyEndpoints
		}
		if err := tx.Create(ep).Error; err != nil {
			return fmt.Errorf("create endpoint: %w", err)
		}
		return nil
	})
}

// lockEndpoints takes the user's lock and reads the user's endpoints other
// than except: it returns how many there are, or an *EndpointExists when one
// of them is at url.
func lockEndpoints(tx *gorm.DB, userID uint64, url, except string) (int, error) {
	if err := lockUser(tx, userID); err != nil {
		return 0, err
	}
	var eps []WebhookEndpoint
	if err := tx.Select("id, url").Where("user_id = ? AND id <> ?", userID, except).Order("created_at, id").Find(
		&eps).Error; err != nil {
		return 0, fmt.Errorf("read endpoints: %w", err)
	}
	want := endpointAddress(url)
	for _, e := range eps {
		if endpointAddress(e.URL) == want {
			return 0, &EndpointExists{ID: e.ID}
		}
	}
	return len(eps), nil
}

// endpointAddress is the form two endpoint URLs are compared in: scheme and
// host in lower case, no default port, an empty path as "/", no fragment.
// A URL that does not parse is compared as written.
func endpointAddress(raw string) string {
	u, err := neturl.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return raw
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	scheme := strings.ToLower(u.Scheme)
	if port != "" && !(scheme == "https" && port == "443") && !(scheme == "http" && port == "80") {
		host += ":" + port
	}
	if u.User != nil {
		host = u.User.String() + "@" + host
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	out := scheme + "://" + host + path
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + u.RawQuery
	}
	return out
}

// EndpointsOfUser lists a user's endpoints, oldest first.
func EndpointsOfUser(ctx context.Context, db *gorm.DB, userID uint64) ([]WebhookEndpoint, error) {
	var out []WebhookEndpoint
	if err := db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list endpoints: %w", err)
	}
	return out, nil
}

// EndpointOfUser reads one endpoint of a user; another user's or an
// unknown id wraps ErrNotFound.
func EndpointOfUser(ctx context.Context, db *gorm.DB, userID uint64, id string) (*WebhookEndpoint, error) {
	var ep WebhookEndpoint
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&ep).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("endpoint %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read endpoint %s: %w", id, err)
	}
	return &ep, nil
}

// UpdateEndpoint changes the URL or the events of a user's endpoint (an
// empty value keeps the stored one). A URL another endpoint of the account
// is at already is refused with an *EndpointExists.
func UpdateEndpoint(ctx context.Context, db *gorm.DB, userID uint64, id, url, events string) (*WebhookEndpoint, error) {
	set := map[string]any{}
	if url != "" {
		set["url"] = url
	}
	if events != "" {
		set["events"] = events
	}
	if len(set) > 0 {
		err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if url != "" {
				if _, err := lockEndpoints(tx, userID, url, id); err != nil {
					return err
				}
			}
			if err := tx.Model(&WebhookEndpoint{}).Where("id = ? AND user_id = ?", id, userID).Updates(set).Error; err != nil {
				return fmt.Errorf("update endpoint %s: %w", id, err)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return EndpointOfUser(ctx, db, userID, id)
}

// DeleteEndpoint removes a user's endpoint; its pending deliveries are
// skipped when their turn comes.
func DeleteEndpoint(ctx context.Context, db *gorm.DB, userID uint64, id string) error {
	res := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&WebhookEndpoint{})
	if res.Error != nil {
		return fmt.Errorf("delete endpoint %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("endpoint %s: %w", id, ErrNotFound)
	}
	return nil
}

// DeliveryQuery filters a user's delivery log; empty fields do not filter.
type DeliveryQuery struct {
	UserID                    uint64
	Event, Status, EndpointID string
	JobID                     string
	Start, End                *time.Time
	After                     *Position
	Limit                     int
}

// ListDeliveries is a page of a user's deliveries, newest first.
func ListDeliveries(ctx context.Context, db *gorm.DB, q DeliveryQuery) (Page[WebhookDelivery], error) {
	tx := db.WithContext(ctx).Where("user_id = ?", q.UserID)
	for col, v := range map[string]string{"event": q.Event, "status": q.Status, "endpoint_id": q.EndpointID,
		"job_id": q.JobID} {
		if v != "" {
			tx = tx.Where(col+" = ?", v)
		}
	}
	if q.Start != nil {
		tx = tx.Where("created_at >= ?", *q.Start)
	}
	if q.End != nil {
		tx = tx.Where("created_at < ?", *q.End)
	}
	return newestFirst(
		tx,
		q.After,
		max(q.Limit, 1),
		textID,
		func(d *WebhookDelivery) Position { return Position{At: d.CreatedAt, ID: d.ID} },
	)
}

// AttemptsOf lists the attempts of several deliveries, by delivery id, in
// attempt order.
func AttemptsOf(ctx context.Context, db *gorm.DB, deliveryIDs []string) (map[string][]WebhookAttempt, error) {
	out := make(map[string][]WebhookAttempt, len(deliveryIDs))
	if len(deliveryIDs) == 0 {
		return out, nil
	}
	var rows []WebhookAttempt
	if err := db.WithContext(ctx).Where("delivery_id IN ?", deliveryIDs).Order("attempt, id").Find(
		&rows).Error; err != nil {
		return nil, fmt.Errorf("read attempts: %w", err)
	}
	for _, a := range rows {
		out[a.DeliveryID] = append(out[a.DeliveryID], a)
	}
	return out, nil
}

// KeyOfUser reads one key of a user; another user's or an unknown id wraps
// ErrNotFound.
func KeyOfUser(ctx context.Context, db *gorm.DB, userID uint64, keyID string) (*APIKey, error) {
	var k APIKey
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", keyID, userID).Take(&k).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("key %s: %w", keyID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", keyID, err)
	}
	return &k, nil
}

// ListJobsByOutcome is ListJobs also filtered by outcome: a job outcome
// (succeeded, failed, cancelled…), "running" for jobs without one yet, or
// "" for all.
func ListJobsByOutcome(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	keyID, outcome string,
	after *Position,
	limit int,
) (Page[Job], error) {
	q := db.WithContext(ctx).Where("user_id = ?", userID)
	if keyID != "" {
		q = q.Where("api_key_id = ?", keyID)
	}
	switch outcome {
	case "":
	case "running":
		q = q.Where("outcome IS NULL")
	default:
		q = q.Where("outcome = ?", outcome)
	}
	return newestFirst(q, after, limit, textID, func(j *Job) Position { return Position{At: j.CreatedAt, ID: j.ID} })
}
