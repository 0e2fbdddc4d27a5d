package main

import (
	"crypto/tls"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
)

// serverLimits bound what one connection may take of the HTTP server, so
// that slow or silent clients cannot hold it.
type serverLimits struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
}

// slowestClient is the slowest transfer the limits leave room for, in bytes
// per second (128 KiB/s, about 1 Mbit/s).
const slowestClient = 128 << 10

// defaultServerLimits are the one place the server's timeouts are set, and
// why they fit:
//
//   - ReadHeaderTimeout 10 s: the request line and headers are small.
//   - ReadTimeout bounds the whole request from its first byte: the headers
//     plus an upload of limits.upload.max_bytes at slowestClient (20 MiB:
//     160 s). net/http also reads through it while a handler runs (to see
//     the client go away) and cancels the request when it expires, so it
//     must outlast a Prefer: wait of prefer_wait.max_seconds (60 s) and the
//     admit before it (10 s): it does.
//   - WriteTimeout runs from the end of the headers to the end of the
//     answer: the upload's transfer time, a full Prefer: wait and admit, and
//     30 s more to write the answer, so no allowed request is cut short; a
//     download of an output file (no larger than an upload) fits too.
//   - IdleTimeout 2 min between keep-alive requests.
//   - MaxHeaderBytes is 8 × middleware.MaxHeaderBytes: the API answers headers over
//     its own limit with 431 in the error shape, and only headers beyond
//     this (and the 4 KiB net/http adds) get net/http's plain-text 431.
func defaultServerLimits() serverLimits {
	lim := contract.DefaultLimits()
	header := 10 * time.Second
	transfer := time.Duration(lim.Upload.MaxBytes/slowestClient) * time.Second
	wait := time.Duration(lim.PreferWait.MaxSeconds)*time.Second + 10*time.Second
	return serverLimits{
		ReadHeaderTimeout: header,
		ReadTimeout:       header + max(transfer, wait),
		WriteTimeout:      transfer + wait + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    8 * middleware.MaxHeaderBytes,
	}
}

// newHTTPServer is the server of every process, bounded by lim.
func newHTTPServer(h http.Handler, log *zap.Logger, lim serverLimits) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: lim.ReadHeaderTimeout, ReadTimeout: lim.ReadTimeout,
		WriteTimeout: lim.WriteTimeout, IdleTimeout: lim.IdleTimeout, MaxHeaderBytes: lim.MaxHeaderBytes,
		ErrorLog: zap.NewStdLog(log), TLSConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
}
