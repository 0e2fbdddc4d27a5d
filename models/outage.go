package models

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable says whether err means the database could not be reached or
// used at all (no connection, a dropped or closed one, a timeout, a server
// shutting down), rather than a query that failed on its own: the caller
// may retry the same request later.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var connect *pgconn.ConnectError
	var netErr net.Error
	var pg *pgconn.PgError
	switch {
	case errors.As(err, &connect), errors.As(err, &netErr):
		return true
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, errPoolClosed()),
		errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.As(err, &pg):
		return unavailableState(pg.Code)
	}
	return false
}

// unavailableState says whether a PostgreSQL SQLSTATE reports the server
// unreachable rather than the query wrong: class 08 (connection exception),
// shutdowns, "cannot connect now" and too many connections.
func unavailableState(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// errPoolClosed is the error database/sql answers once a pool is closed; it
// does not export it, so it is taken once from a closed pool of its own.
var errPoolClosed = sync.OnceValue(func() error {
	db := sql.OpenDB(noConnector{})
	_ = db.Close()
	return db.PingContext(context.Background())
})

// noConnector is a connector that never connects.
type noConnector struct{}

func (noConnector) Connect(context.Context) (driver.Conn, error) { return nil, driver.ErrBadConn }
func (noConnector) Driver() driver.Driver                        { return nil }
