package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// syncBuffer collects a process's output while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// devProcess is one `taskplatform dev` started by a test.
type devProcess struct {
	cmd     *exec.Cmd
	out     *syncBuffer
	done    chan struct{}
	err     error // of Wait, once done is closed
	base    string
	uiBase  string
	dataDir string
	// temporalPort is the dev server's frontend port.
	temporalPort string
}

var (
	devKeyLine   = regexp.MustCompile(`Dev API key\s+(tpk_[A-Za-z0-9_-]+)`)
	devChildLine = regexp.MustCompile(`Temporal dev server starting.*"pid": (\d+)`)
)

// freePort is a local port free at the time of the call.
func freePort(t *testing.T) int {
	t.Helper()
	p, err := strconv.Atoi(closedPort(t))
	require.NoError(t, err)
	return p
}

// startDev starts the built binary's dev on free ports with dataDir and the
// pinned Temporal CLI (cli, when not empty). It is killed, with any child
// left in dataDir, when the test ends.
func startDev(t *testing.T, dataDir, cli string, extraEnv ...string) *devProcess {
	t.Helper()
	httpPort, tport, uiPort := freePort(t), freePort(t), freePort(t)
	if cli == "" {
		var err error
		cli, err = testenv.TemporalCLI()
		require.NoError(t, err)
	}
	d := &devProcess{out: &syncBuffer{}, done: make(chan struct{}), dataDir: dataDir, temporalPort: strconv.Itoa(tport),
		base:   "http://127.0.0.1:" + strconv.Itoa(httpPort),
		uiBase: "http://127.0.0.1:" + strconv.Itoa(uiPort)}
	d.cmd = exec.Command(binary, "dev")
	d.cmd.Dir = dataDir
	d.cmd.Env = []string{
		"TP_HTTP_ADDR=127.0.0.1:" + strconv.Itoa(httpPort),
		"TP_TEMPORAL_PORT=" + strconv.Itoa(tport),
		"TP_TEMPORAL_UI_PORT=" + strconv.Itoa(uiPort),
		"TP_DATA_DIR=" + dataDir,
		"TP_TEMPORAL_CLI=" + cli,
	}
	d.cmd.Env = append(d.cmd.Env, extraEnv...)
	d.cmd.Stdout, d.cmd.Stderr = d.out, d.out
	require.NoError(t, d.cmd.Start())
	go func() { d.err = d.cmd.Wait(); close(d.done) }()
	t.Cleanup(func() {
		select {
		case <-d.done:
		default:
			_ = d.cmd.Process.Kill()
			<-d.done
		}
		for _, pid := range processesUsing(dataDir) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return d
}

// exited waits up to limit for dev to end and returns its exit code.
func (d *devProcess) exited(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-d.done:
	case <-time.After(limit):
		t.Fatalf("dev did not exit within %s; output:\n%s", limit, d.out.String())
	}
	var exit *exec.ExitError
	if errors.As(d.err, &exit) {
		return exit.ExitCode()
	}
	require.NoError(t, d.err)
	return 0
}

// devReadyLimit is how long a dev start may take: a first start on a fresh
// data dir migrates and draws the curated library, and the test machine is
// shared with other packages' tests.
const devReadyLimit = 2 * time.Minute

// ready polls /readyz until 200 and the key is printed; it fails if dev
// exits first or limit passes.
func (d *devProcess) ready(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-d.done:
			return fmt.Errorf("dev exited before it was ready (%v)", d.err)
		default:
		}
		if res, err := http.Get(d.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK && devKeyLine.MatchString(d.out.String()) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dev not ready after %s", limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// temporalLog is the Temporal dev server's log in the data dir, for failure
// messages: the data dir goes with the test.
func (d *devProcess) temporalLog() string {
	raw, err := os.ReadFile(filepath.Join(d.dataDir, "temporal.log"))
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(raw)
}

// portTaken says dev stopped because a port it was given was taken
// between the test choosing it and dev listening on it: by dev itself, or
// by its Temporal child (dev's error then quotes the child's bind failure).
func (d *devProcess) portTaken() bool {
	out := d.out.String()
	return strings.Contains(out, "address already in use") || strings.Contains(out, "is in use")
}

// startReady is startDev and waitReady, starting dev again (on other free
// ports) when a port chosen for it was taken meanwhile by a process
// starting at the same time — the ports are chosen by listening and
// closing, so nothing holds them until dev listens.
func startReady(t *testing.T, dataDir, cli string, extraEnv ...string) *devProcess {
	t.Helper()
	const starts = 3
	for start := 1; ; start++ {
		d := startDev(t, dataDir, cli, extraEnv...)
		err := d.ready(devReadyLimit)
		if err == nil {
			// The data dir goes with the test: a failure keeps what dev
			// and its Temporal child said.
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("dev output:\n%s\ntemporal.log:\n%s", d.out.String(), d.temporalLog())
				}
			})
			return d
		}
		select {
		case <-d.done:
		default:
			_ = d.cmd.Process.Kill()
			<-d.done
		}
		if start < starts && d.portTaken() {
			t.Logf("start %d: a port was taken, starting dev again; output:\n%s", start, d.out.String())
			continue
		}
		t.Fatalf("%v; output:\n%s\ntemporal.log:\n%s", err, d.out.String(), d.temporalLog())
	}
}

// key is the dev API key dev printed.
func (d *devProcess) key(t *testing.T) string {
	t.Helper()
	m := devKeyLine.FindStringSubmatch(d.out.String())
	require.NotNil(t, m, "dev prints its API key; output:\n%s", d.out.String())
	return m[1]
}

// childPID is the Temporal dev server's pid from dev's log.
func (d *devProcess) childPID(t *testing.T) int {
	t.Helper()
	m := devChildLine.FindStringSubmatch(d.out.String())
	require.NotNil(t, m, "dev logs the Temporal child's pid; output:\n%s", d.out.String())
	pid, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return pid
}

// requireBalance checks key works on GET /v1/account/balance and shows the
// dev credits.
func (d *devProcess) requireBalance(t *testing.T, key string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, d.base+"/v1/account/balance", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var body struct {
		Balances []struct {
			CreditType string `json:"credit_type"`
			Remaining  int64  `json:"remaining"`
		} `json:"balances"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	var service int64 = -1
	for _, b := range body.Balances {
		if b.CreditType == "service_credits" {
			service = b.Remaining
		}
	}
	require.EqualValues(t, devCredits, service, "the dev account has %d service_credits", devCredits)
}

// processesUsing lists live processes whose command line mentions dir.
func processesUsing(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), dir) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && isZombie(string(stat)) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// isZombie reads the state field of /proc/<pid>/stat.
func isZombie(stat string) bool {
	i := strings.LastIndexByte(stat, ')')
	return i >= 0 && strings.HasPrefix(strings.TrimSpace(stat[i+1:]), "Z")
}

// requireGone checks the process has ended.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	require.True(t, err != nil || isZombie(string(stat)), "the Temporal child %d is still running", pid)
}

// TestDevSmoke starts dev twice on one data dir: it comes up, serves the
// API and the Temporal UI, stops cleanly on SIGINT without leaving Temporal
// behind, and prints the same working key again.
func TestDevSmoke(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()

	dev := startReady(t, dataDir, "")
	key := dev.key(t)
	dev.requireBalance(t, key)

	// The UI answers HTML (it may come up just after the frontend).
	var ctype string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		res, err := http.Get(dev.uiBase + "/")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				ctype = res.Header.Get("Content-Type")
				break
			}
		}
	}
	require.True(t, strings.HasPrefix(ctype, "text/html"), "the Temporal UI serves HTML, got %q", ctype)

	child := dev.childPID(t)
	require.Contains(t, processesUsing(dataDir), child, "the Temporal child runs on this data dir")
	require.NoError(t, dev.cmd.Process.Signal(os.Interrupt))
	require.Zero(t, dev.exited(t, 20*time.Second), "dev exits 0 on SIGINT; output:\n%s", dev.out.String())
	requireGone(t, child)
	require.Empty(t, processesUsing(dataDir), "no process of this dev is left")

	again := startReady(t, dataDir, "")
	require.Equal(t, key, again.key(t), "dev prints the same key on every start")
	again.requireBalance(t, key)
	child = again.childPID(t)
	require.NoError(t, again.cmd.Process.Signal(syscall.SIGTERM))
	require.Zero(t, again.exited(t, 20*time.Second), "dev exits 0 on SIGTERM; output:\n%s", again.out.String())
	requireGone(t, child)
	require.Empty(t, processesUsing(dataDir))
}

// TestDevStopsWhenTemporalDies kills the Temporal child: dev exits non-zero
// and says why.
func TestDevStopsWhenTemporalDies(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	dev := startReady(t, dataDir, "")
	require.NoError(t, syscall.Kill(dev.childPID(t), syscall.SIGKILL))
	require.NotZero(t, dev.exited(t, 20*time.Second))
	require.Contains(t, dev.out.String(), "the Temporal dev server exited")
	require.Empty(t, processesUsing(dataDir))
}

// TestDevWithoutTemporalCLI: a missing CLI is an error that says how to build it.
func TestDevWithoutTemporalCLI(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	dev := startDev(t, dataDir, filepath.Join(dataDir, "no-such-temporal"))
	require.NotZero(t, dev.exited(t, 20*time.Second))
	out := dev.out.String()
	require.Contains(t, out, "cannot start the Temporal dev server")
	require.Contains(t, out, "make bin/temporal")
	require.Contains(t, out, "go install github.com/temporalio/cli/cmd/temporal@v1.5.1")
	require.NotContains(t, out, "panic")
}

// TestDevTemporalPortTaken: a port already in use is refused up front rather
// than dialling whatever listens there.
func TestDevTemporalPortTaken(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	dataDir := t.TempDir()
	cli, err := testenv.TemporalCLI()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "dev")
	cmd.Dir = dataDir
	cmd.Env = []string{
		"TP_HTTP_ADDR=127.0.0.1:" + closedPort(t),
		"TP_TEMPORAL_PORT=" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port),
		"TP_TEMPORAL_UI_PORT=" + closedPort(t),
		"TP_DATA_DIR=" + dataDir,
		"TP_TEMPORAL_CLI=" + cli,
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, ctx.Err(), "dev did not give up in time:\n%s", out)
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "dev fails: %v\n%s", err, out)
	require.Contains(t, string(out), "is in use")
	require.Empty(t, processesUsing(dataDir))
}
