package middleware

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// Request-log batching: a batch is written when it holds requestLogBatch
// calls or requestLogInterval has passed since the last write.
const (
	requestLogBuffer   = 8192
	requestLogBatch    = 500
	requestLogInterval = time.Second
)

// RequestLog writes the calls made with keys in the background, in
// batches, so a request never waits for its log row. The worker prunes the
// log by age (TP_REQUEST_LOG_RETENTION). Close writes what is
// buffered; a process that Closes it on shutdown loses nothing.
type RequestLog struct {
	db  *gorm.DB
	log *zap.Logger

	mu      sync.RWMutex // guards closed and sends on rows
	closed  bool
	rows    chan models.RequestLog
	flushes chan chan struct{}
	done    chan struct{}
}

// NewRequestLog starts the background writer of the request log.
func NewRequestLog(db *gorm.DB, log *zap.Logger) *RequestLog {
	if log == nil {
		log = zap.NewNop()
	}
	l := &RequestLog{db: db, log: log, rows: make(chan models.RequestLog, requestLogBuffer),
		flushes: make(chan chan struct{}), done: make(chan struct{})}
	go l.run()
	return l
}

// Record queues one call. It only waits when the buffer is full (the
// database is behind); after Close it writes the row itself.
func (l *RequestLog) Record(row models.RequestLog) {
	l.mu.RLock()
	if !l.closed {
		l.rows <- row
		l.mu.RUnlock()
		return
	}
	l.mu.RUnlock()
	l.write([]models.RequestLog{row})
}

// Flush returns once every call recorded before it was written.
func (l *RequestLog) Flush() {
	ack := make(chan struct{})
	select {
	case l.flushes <- ack:
		<-ack
	case <-l.done:
	}
}

// Close writes every buffered call and stops the writer. Call it after the
// HTTP server has shut down.
func (l *RequestLog) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.rows)
	}
	l.mu.Unlock()
	<-l.done
	return nil
}

func (l *RequestLog) run() {
	defer close(l.done)
	tick := time.NewTicker(requestLogInterval)
	defer tick.Stop()
	batch := make([]models.RequestLog, 0, requestLogBatch)
	flush := func() {
		l.write(batch)
		batch = batch[:0]
	}
	for {
		select {
		case row, ok := <-l.rows:
			if !ok {
				flush()
				return
			}
			if batch = append(batch, row); len(batch) >= requestLogBatch {
				flush()
			}
		case ack := <-l.flushes:
			for n := len(l.rows); n > 0; n-- {
				batch = append(batch, <-l.rows)
			}
			flush()
			close(ack)
		case <-tick.C:
			flush()
		}
	}
}

func (l *RequestLog) write(rows []models.RequestLog) {
	if len(rows) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := models.InsertRequestLogs(ctx, l.db, rows); err != nil {
		l.log.Error("request log rows lost", zap.Int("rows", len(rows)), zap.Error(err))
	}
}

// RecordRequests logs every call made with a valid key once its answer is
// decided: to rl in the background, or, with no rl, synchronously on db
// after the handler. It sits outside the error renderer so it sees final
// statuses. A nil db logs nothing.
func RecordRequests(db *gorm.DB, rl *RequestLog, now func() time.Time) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := now()
		began := time.Now()
		c.Next()
		id := IdentityOf(c)
		if id == nil || id.Key == nil || db == nil {
			return
		}
		route := c.FullPath()
		row := models.RequestLog{
			RequestID: RequestIDOf(c),
			UserID:    id.User.ID,
			APIKeyID:  id.Key.ID,
			Method:    c.Request.Method,
			Route: RoutePattern(
				route,
			),
			Path:            c.Request.URL.Path,
			Status:          c.Writer.Status(),
			ErrorCode:       c.GetString(errorCodeKey),
			DurationMS:      time.Since(began).Milliseconds(),
			ClientRequestID: c.Writer.Header().Get("X-Client-Request-ID"),
			ServiceVersion:  VersionOf(c),
			CreatedAt:       start.Truncate(time.Microsecond),
		}
		if strings.HasPrefix(route, "/v1/tasks/:") {
			row.Task = c.Param("name")
		}
		if rl != nil {
			rl.Record(row)
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), 5*time.Second)
		defer cancel()
		if err := models.InsertRequestLogs(ctx, db, []models.RequestLog{row}); err != nil {
			Logger(c).Error("request log row lost", zap.Error(err))
		}
	}
}
