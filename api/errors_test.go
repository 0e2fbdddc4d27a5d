package api

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestDatabaseOutageIs503(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b)
			sqlDB, err := e.db.DB()
			require.NoError(t, err)
			require.NoError(t, sqlDB.Close())

			res := e.send(http.MethodGet, "/v1/account/balance", "", keyed(e.key)...)
			require.Equal(t, http.StatusServiceUnavailable, res.code, "%s", res.body)
			obj := res.errObj(t)
			require.Equal(t, "service_unavailable", obj["code"])
			require.Equal(t, true, obj["retryable"])
			wait := obj["ctx"].(map[string]any)["retry_after"].(float64)
			require.Positive(t, wait)
			require.Equal(t, strconv.Itoa(int(wait)), res.head.Get("Retry-After"))
			require.NotContains(t, string(res.body), "closed", "no internal error text reaches the client")
		})
	}
}

// errorRouter answers every path with err through the error middleware.
func errorRouter(err error) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(middleware.AssignRequestID(), middleware.RenderErrors())
	r.GET("/", func(c *gin.Context) { middleware.Fail(c, err) })
	return r
}

func TestWaitingAnswersNameTheirWait(t *testing.T) {
	t.Parallel()
	var waits []*apierr.Error
	for _, en := range apierr.Entries() {
		if en.Status == http.StatusTooManyRequests || en.Status == http.StatusServiceUnavailable {
			e := apierr.New(en.Code, "")
			require.NotNil(t, e.Ctx.RetryAfter, "the builder sets a wait on %s", en.Code)
			require.Positive(t, *e.Ctx.RetryAfter, en.Code)
			waits = append(waits, e)
		}
	}
	require.NotEmpty(t, waits)
	waits = append(
		waits,
		apierr.New(apierr.RateLimited, "").WithRetryAfter(0),                      // a window that just reset
		apierr.New(apierr.Internal, "").WithStatus(http.StatusServiceUnavailable), // a job error answered as 503
		&apierr.Error{
			Code:   apierr.CapacityBusy,
			Status: http.StatusServiceUnavailable,
		}, // a stored job error, read back
	)
	pgDown := &pgconn.PgError{Code: "57P03"}
	for _, err := range []error{
		&pgconn.ConnectError{},
		&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")},
		fmt.Errorf("read key: %w", driver.ErrBadConn),
		fmt.Errorf("read key: %w", sql.ErrConnDone),
		fmt.Errorf("read key: %w", context.DeadlineExceeded),
		fmt.Errorf("read key: %w", pgDown),
	} {
		res := serve(errorRouter(err), request(http.MethodGet, "/", nil))
		require.Equal(t, http.StatusServiceUnavailable, res.code, "%v: %s", err, res.body)
		require.Equal(t, "service_unavailable", res.errCode(t))
	}
	for i, e := range waits {
		t.Run(fmt.Sprintf("%d_%s", i, e.Code), func(t *testing.T) {
			res := serve(errorRouter(e), request(http.MethodGet, "/", nil))
			require.Contains(t, []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}, res.code)
			wait, ok := res.errObj(t)["ctx"].(map[string]any)["retry_after"].(float64)
			require.True(t, ok, "ctx.retry_after on %s", res.body)
			require.Positive(t, wait)
			require.Equal(t, strconv.Itoa(int(wait)), res.head.Get("Retry-After"))
		})
	}
}

func TestQueryErrorsStayInternal(t *testing.T) {
	t.Parallel()
	for _, err := range []error{errors.New("boom"), &pgconn.PgError{Code: "23505"}, context.Canceled} {
		res := serve(errorRouter(err), request(http.MethodGet, "/", nil))
		require.Equal(t, http.StatusInternalServerError, res.code, "%v", err)
		require.Equal(t, "internal", res.errCode(t))
	}
}
