package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/worker"
	"github.com/taskplatform/taskplatform/workflows"
)

const (
	devEmail   = "dev@taskplatform.local"
	devCredits = 1000
	cliBuild   = "make bin/temporal   (or: GOBIN=$PWD/bin go install github.com/temporalio/cli/cmd/temporal@v1.5.1)"
)

// findTemporalCLI looks at TP_TEMPORAL_CLI, bin/ (beside the working
// directory and the executable) and PATH.
func findTemporalCLI(cfg config) (string, error) {
	if cfg.TemporalCLI != "" {
		if _, err := os.Stat(cfg.TemporalCLI); err != nil {
			return "", fmt.Errorf(
				"TP_TEMPORAL_CLI=%s: %w; build the Temporal CLI with: %s",
				cfg.TemporalCLI,
				err,
				cliBuild,
			)
		}
		return cfg.TemporalCLI, nil
	}
	candidates := []string{filepath.Join("bin", "temporal")}
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "temporal"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return absPath(c), nil
		}
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf(
		"the Temporal CLI was not found in bin/, on PATH or at TP_TEMPORAL_CLI; build it with: %s",
		cliBuild,
	)
}

// devServer is the Temporal dev server child process.
type devServer struct {
	cmd  *exec.Cmd
	done chan error
	// log is the child's log file; this child's lines start at logStart.
	log      string
	logStart int64
}

// devServerStarts is how often dev starts the Temporal dev server when it
// exits during start because a port was taken meanwhile: the server picks
// free ports for its own services by listening and closing, so another
// process starting at the same moment can take one first.
const devServerStarts = 3

// errDevServerExited is dialWhenUp's error when the child exits during start.
var errDevServerExited = errors.New("the Temporal dev server exited during start")

// ownLog is everything this child wrote to its log.
func (d *devServer) ownLog() string {
	raw, err := os.ReadFile(d.log)
	if err != nil || int64(len(raw)) < d.logStart {
		return ""
	}
	return string(raw[d.logStart:])
}

// exitedLog is what this child wrote to its log, at most its last 4 KiB.
func (d *devServer) exitedLog() string {
	raw := d.ownLog()
	if len(raw) > 4<<10 {
		raw = raw[len(raw)-4<<10:]
	}
	return strings.TrimSpace(raw)
}

// lostPortLine is the line of this child's log that says a port it wanted
// was taken, or "". It is searched in the whole of the child's lines: the
// server's panic after it can run longer than the 4 KiB dev quotes.
func (d *devServer) lostPortLine() string {
	for line := range strings.Lines(d.ownLog()) {
		if strings.Contains(line, "address already in use") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// lostAPort says whether the child exited during start because a port it
// wanted was taken: starting it again picks other ports.
func (d *devServer) lostAPort() bool { return d.lostPortLine() != "" }

func startDevServer(cfg config, log *zap.Logger) (*devServer, error) {
	cli, err := findTemporalCLI(cfg)
	if err != nil {
		return nil, err
	}
	// A port already taken (often another dev) would let us dial a foreign
	// server while our child fails: refuse up front.
	for _, p := range []struct {
		name string
		port int
	}{{"TP_TEMPORAL_PORT", cfg.TemporalPort}, {"TP_TEMPORAL_UI_PORT", cfg.TemporalUIPort}} {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port)))
		if err != nil {
			return nil, fmt.Errorf(
				"port %d is in use (another taskplatform dev?): choose a free %s, or set TP_TEMPORAL_ADDRESS to use a running "+
					"Temporal: %w",
				p.port,
				p.name,
				err,
			)
		}
		_ = ln.Close()
	}
	logFile, err := os.OpenFile(filepath.Join(cfg.DataDir, "temporal.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	args := []string{"server", "start-dev",
		"--db-filename", absPath(filepath.Join(cfg.DataDir, "temporal.db")),
		"--ip", "127.0.0.1", "--port", strconv.Itoa(cfg.TemporalPort), "--ui-port", strconv.Itoa(cfg.TemporalUIPort),
		"--namespace", cfg.TemporalNamespace, "--log-level", "warn", "--log-format", "pretty",
		// One partition per task queue: at one machine's load, tasks forwarded
		// between partitions cost seconds of submit latency (p99 2 s → 0.13 s).
		"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
		"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1"}
	// Priority and fairness keys honoured (workflows.FairnessDynamicConfig).
	cmd := exec.Command(cli, append(args, workflows.DevServerArgs()...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	var logStart int64
	if st, err := logFile.Stat(); err == nil {
		logStart = st.Size()
	}
	// Own process group, and killed with us even if we die hard.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("start %s: %w", cli, err)
	}
	d := &devServer{cmd: cmd, done: make(chan error, 1), log: logFile.Name(), logStart: logStart}
	go func() {
		d.done <- cmd.Wait()
		_ = logFile.Close()
	}()
	log.Info(
		"Temporal dev server starting",
		zap.String("cli", cli),
		zap.Int("pid", cmd.Process.Pid),
		zap.String("log", logFile.Name()),
	)
	return d, nil
}

// stop ends the child: SIGTERM to its group, then SIGKILL after a grace.
func (d *devServer) stop() {
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-d.done: //nolint:errcheck // the exit status of a child we signalled says nothing we act on
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.done //nolint:errcheck // killed: its exit status is the kill
	}
}

// dialWhenUp dials Temporal until it answers, the child dies or time runs out.
func dialWhenUp(ctx context.Context, s *stack, child *devServer) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := s.dialTemporal(ctx)
		if err == nil {
			return nil
		}
		if child != nil {
			select {
			case werr := <-child.done:
				child.done <- werr
				if line := child.lostPortLine(); line != "" {
					return fmt.Errorf("%w (%v): a port it needed was taken by another process: %s; see %s",
						errDevServerExited, werr, line, child.log)
				}
				return fmt.Errorf(
					"%w (%v); see %s; it wrote:\n%s",
					errDevServerExited,
					werr,
					child.log,
					child.exitedLog(),
				)
			default:
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// runDev is `taskplatform dev`: the whole stack in one process.
func runDev(ctx context.Context, cfg config) int {
	log := newLogger(true)
	if err := middleware.CheckDevListenAddr(cfg.HTTPAddr); err != nil {
		return fatal(log, "refusing to serve", err)
	}
	// The API's address is taken before anything is written: a port in use
	// (often another dev) would otherwise get a banner and a dev.env that
	// point at the other stack.
	httpLn, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fatal(log, "cannot serve the API", fmt.Errorf(
			"%s is in use (another taskplatform dev?): set TP_HTTP_ADDR to a free address, such as "+
				"TP_HTTP_ADDR=127.0.0.1:8081 (and TP_TEMPORAL_PORT, TP_TEMPORAL_UI_PORT for a second dev): %w",
			cfg.HTTPAddr, err))
	}
	defer httpLn.Close()
	s := &stack{cfg: cfg, log: log}
	defer s.close()
	if err := s.openStores(ctx); err != nil {
		return fatal(log, "cannot open the stores", err)
	}
	if err := models.Migrate(ctx, s.db); err != nil {
		return fatal(log, "migration failed", err)
	}
	// The libraries are drawn by code (seconds of CPU on a first start):
	// write them beside the start-up, so a missing CLI or a taken port is
	// reported at once; /readyz answers 200 only once they are written.
	lib := writeLibraries(ctx, s, log)
	defer lib.stop()
	s.library = lib.state
	if err := s.loadSigner(ctx); err != nil {
		return fatal(log, "cannot load the signing key", err)
	}
	key, err := seedDevAccount(ctx, s.db, cfg.DataDir)
	if err != nil {
		return fatal(log, "cannot seed the dev account", err)
	}
	password, err := seedDevPassword(ctx, s.db, cfg.DataDir)
	if err != nil {
		return fatal(log, "cannot set the dev account's panel password", err)
	}
	if err := writeDevEnv(cfg, key); err != nil {
		return fatal(log, "cannot write the dev env file", err)
	}
	var child *devServer
	for start := 1; ; start++ {
		if !cfg.TemporalAddrSet {
			if child, err = startDevServer(cfg, log); err != nil {
				return fatal(log, "cannot start the Temporal dev server", err)
			}
		}
		err = dialWhenUp(ctx, s, child)
		if err == nil {
			break
		}
		if child != nil {
			child.stop()
		}
		if errors.Is(err, errDevServerExited) && child.lostAPort() && start < devServerStarts {
			log.Warn(
				"the Temporal dev server lost a port to another process while starting; starting it again",
				zap.Int("start", start),
			)
			continue
		}
		return fatal(log, "Temporal is not reachable", err)
	}
	if child != nil {
		defer child.stop()
	}
	if err := worker.RegisterSearchAttributes(ctx, s.temporal, cfg.TemporalNamespace); err != nil {
		return fatal(log, "cannot register search attributes", err)
	}
	w := worker.New(s.temporal, s.activities(), worker.Options{MaxConcurrentSteps: cfg.MaxConcurrentStep,
		AnalysisCapacity: cfg.AnalysisCapacity, LateAdmits: activities.LateAdmitOptions{Deadline: cfg.LateAdmitDeadline}})
	if err := w.Start(); err != nil {
		return fatal(log, "worker did not start", err)
	}
	defer w.Stop()
	ensureNotices(ctx, s, log)
	checkPriority(ctx, s, cfg.TemporalNamespace, log)
	defer startRetention(ctx, s.db, cfg.retention(), log)()

	httpCtx, stopHTTP := context.WithCancel(ctx)
	defer stopHTTP()
	httpErr := make(chan error, 1)
	go func() { httpErr <- serveListener(httpCtx, log, httpLn, s.router(false), "", "") }()

	ui := "(external Temporal at " + cfg.TemporalAddress + ")"
	if child != nil {
		ui = fmt.Sprintf("http://127.0.0.1:%d", cfg.TemporalUIPort)
	}
	fmt.Printf(
		"\n  taskplatform dev is running\n\n  API          %s/v1   (contract %s)\n  Temporal UI  %s\n  Dev API key  %s\n  "+
			"Panel        %s/app/   (sign in as %s, password %s)\n\n  try: curl -H 'Authorization: Key %s' "+
			"%s/v1/account/balance\n\n",
		cfg.BaseURL,
		api.CurrentVersion,
		ui,
		key,
		cfg.BaseURL,
		devEmail,
		password,
		key,
		cfg.BaseURL,
	)

	var childDone chan error
	if child != nil {
		childDone = child.done
	}
	select {
	case <-ctx.Done():
		log.Info("stopping")
		return 0
	case err := <-httpErr:
		if err != nil {
			return fatal(log, "API server stopped", err)
		}
		return 0
	case err := <-childDone:
		childDone <- err
		return fatal(
			log,
			"the Temporal dev server exited; stopping (see "+filepath.Join(cfg.DataDir, "temporal.log")+")",
			err,
		)
	}
}

// libraries is the background writing of the curated and photoshoots
// libraries of a dev start.
type libraries struct {
	done   chan struct{}
	err    error // once done is closed
	cancel context.CancelFunc
}

// writeLibraries writes the curated library and the photoshoots library in
// the background, side by side; state answers api.ErrLibraryWriting until
// both are written.
func writeLibraries(ctx context.Context, s *stack, log *zap.Logger) *libraries {
	ctx, cancel := context.WithCancel(ctx)
	l := &libraries{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(l.done)
		var curated error
		wrote := make(chan struct{})
		go func() {
			defer close(wrote)
			if curated = records.SeedCurated(ctx, s.db, s.bucket); curated != nil {
				curated = fmt.Errorf("write the curated library: %w", curated)
			}
		}()
		shoots := photoshoot.SeedLibrary(ctx, s.db, s.bucket)
		if shoots != nil {
			shoots = fmt.Errorf("write the photoshoots library: %w", shoots)
		}
		<-wrote
		l.err = errors.Join(curated, shoots)
		if l.err != nil && ctx.Err() == nil {
			log.Error("the libraries were not written: /readyz answers 503 until a start writes them", zap.Error(l.err))
		}
	}()
	return l
}

// state is nil once the libraries are written, api.ErrLibraryWriting
// while they are being written, and the error that stopped them otherwise.
func (l *libraries) state() error {
	select {
	case <-l.done:
		return l.err
	default:
		return api.ErrLibraryWriting
	}
}

// stop cancels the writing and waits for it to end.
func (l *libraries) stop() {
	l.cancel()
	<-l.done
}

// seedDevAccount makes sure the dev account exists with credits and returns
// its key, kept in the data dir so every start prints the same key.
func seedDevAccount(ctx context.Context, db *gorm.DB, dataDir string) (string, error) {
	u, err := models.UserByEmail(ctx, db, devEmail)
	if errors.Is(err, models.ErrNotFound) {
		if u, err = models.CreateUser(ctx, db, devEmail, models.PlanStandard); err != nil {
			return "", err
		}
		if _, err = models.Grant(ctx, db, u.ID, contract.CreditService, devCredits, nil, "dev seed"); err != nil {
			return "", err
		}
	}
	if err != nil {
		return "", err
	}
	keyFile := filepath.Join(dataDir, "dev-api-key")
	raw, err := os.ReadFile(keyFile)
	secret := strings.TrimSpace(string(raw))
	if err == nil && models.WellFormedKey(secret) {
		if _, _, aerr := models.SecretKeyAuth(ctx, db, secret, time.Now()); aerr == nil {
			return secret, nil
		}
		if _, err := models.CreateKeyWithSecret(ctx, db, u.ID, nil, api.CurrentVersion, secret); err == nil {
			return secret, nil
		}
	}
	_, secret, err = models.CreateKey(ctx, db, u.ID, nil, nil, api.CurrentVersion)
	if err != nil {
		return "", err
	}
	return secret, os.WriteFile(keyFile, []byte(secret+"\n"), 0o600)
}
