package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestUserInputFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"kind":"stripes","count":1,"opts":{"a":1}}`), 0o600))
	in := inputFlags{
		file: file,
		sets: []string{"count=3", `colors=["#1F3A5F"]`, "name=plain text", "opts.b=true", "x.y.z=2"},
	}
	body, err := in.body(nil, nil)
	require.NoError(t, err)
	require.Equal(
		t,
		map[string]any{"kind": "stripes", "count": float64(3), "colors": []any{"#1F3A5F"}, "name": "plain text",
			"opts": map[string]any{
				"a": float64(1),
				"b": true,
			}, "x": map[string]any{"y": map[string]any{"z": float64(2)}}},
		body,
	)

	in = inputFlags{file: "-"}
	body, err = in.body(strings.NewReader(`{"seed":7}`), nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"seed": float64(7)}, body)

	_, err = (&inputFlags{sets: []string{"novalue"}}).body(nil, nil)
	var usage *usageError
	require.ErrorAs(t, err, &usage)
}

func TestUserCommandsRefuseBadUse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"run"}, {"run", "a", "b"}, {"jobs", "x"}, {"files"}, {"run", "t", "--nope"}} {
		r := runBinary(t, []string{"TP_API_KEY=tpk_x", "HOME=" + t.TempDir()}, args...)
		require.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
	}
	r := runBinary(t, []string{"HOME=" + t.TempDir()}, "jobs")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "TP_API_KEY")
	require.Contains(t, r.stderr, ". .data/dev.env", "where a local stack's key is")
	require.NotContains(t, r.stderr, "Usage:", "a missing key is not a misused command: one line says what to set")
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), r.stderr)
}

// notifyJobs stands in for the activities' jobstream.Notify while dev runs
// on PostgreSQL: it notifies every job that has not ended, so streams see
// their changes whether or not the activities notify themselves.
func notifyJobs(t *testing.T, dsn string) {
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	t.Cleanup(func() { cancel(); wg.Wait(); _ = db.Close() })
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			rows, err := db.QueryContext(
				ctx,
				"SELECT id FROM jobs WHERE lifecycle <> 'terminal' OR ended_at > now() - interval '5 seconds'",
			)
			if err == nil {
				var ids []string
				for rows.Next() {
					var id string
					if rows.Scan(&id) == nil {
						ids = append(ids, id)
					}
				}
				_ = rows.Close()
				for _, id := range ids {
					_, _ = db.ExecContext(ctx, "SELECT pg_notify($1, $2)", jobstream.Channel, id)
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
}

func pngFile(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range 8 {
		img.Set(i, i, color.RGBA{200, 30, 30, 255})
	}
	p := filepath.Join(t.TempDir(), "motif.png")
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, img))
	require.NoError(t, f.Close())
	return p
}

var stripes = []string{"--set", "kind=stripes", "--set", `colors=["#1F3A5F","#F2C14E"]`, "--set", "seed=3"}

// TestUserCLI runs the user commands of the built binary against dev: the
// catalogue, an estimate, a refused input, an upload, a run to its end with
// its outputs downloaded, and a run in a terminal whose progress bar is
// drawn and which Ctrl-C cancels.
func TestUserCLI(t *testing.T) {
	t.Parallel()
	dsn := testenv.PostgresSchemaURL(t)
	dev := startReady(t, t.TempDir(), "", "TP_DATABASE_URL="+dsn, "TP_DEV_STEP_DELAY=1500ms")
	notifyJobs(t, dsn)
	env := []string{"TP_BASE_URL=" + dev.base, "TP_API_KEY=" + dev.key(t), "HOME=" + t.TempDir()}

	r := runBinary(t, env, "tasks")
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `(?m)^pattern\.generate\s+design_generation`, r.stdout)

	r = runBinary(t, env, append([]string{"estimate", "pattern.generate", "--set", "count=2"}, stripes...)...)
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `^\d+ service_credits \(2 output\(s\) × \d+\)\n$`, r.stdout)

	r = runBinary(t, env, "estimate", "pattern.generate", "--set", "kind=stripes", "--set", `colors=["#1F3A5F","blue"]`)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "taskplatform: colors[1] must be", "the error names its field")
	require.Equal(t, 1, strings.Count(r.stderr, "colors[1]"), "and names it once: %s", r.stderr)
	require.Contains(t, r.stderr, "(invalid_colour)")

	motif := pngFile(t)
	r = runBinary(t, env, "files", "upload", motif)
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `^file:\S+\n$`, r.stdout)
	uploaded := strings.TrimSpace(r.stdout)
	require.Regexp(t, `^uploaded motif\.png \(image/png, \d+ bytes\) as `+regexp.QuoteMeta(uploaded)+`\n$`, r.stderr,
		"the upload keeps its file name")

	out := t.TempDir()
	r = runBinary(t, env, append([]string{"run", "pattern.generate", "--set", "count=1", "--out", out}, stripes...)...)
	require.Zero(t, r.code, "stderr: %s", r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 3, r.stdout)
	require.Regexp(t, `^j_\S+$`, lines[0])
	require.Regexp(t, `^succeeded: 1 output\(s\), \d+ service_credits charged$`, lines[1])
	require.FileExists(t, lines[2])
	require.Equal(t, out, filepath.Dir(lines[2]))

	r = runBinary(t, env, "jobs")
	require.Zero(t, r.code, r.stderr)
	require.Contains(t, r.stdout, lines[0])
	require.Regexp(t, lines[0]+`\s+pattern\.generate\s+succeeded\s+1/1`, r.stdout)

	t.Run("completion", func(t *testing.T) {
		r := runBinary(t, env, "__complete", "run", "pattern.")
		require.Zero(t, r.code, r.stderr)
		require.Regexp(t, `(?m)^pattern\.generate\t`, r.stdout, "task names complete from the catalogue")
	})
	t.Run("files", func(t *testing.T) { filesListDownload(t, env, uploaded, motif) })
	t.Run("web", func(t *testing.T) { openInPanel(t, env, dev.base, lines[0]) })
	t.Run("terminal", func(t *testing.T) { runInTerminal(t, env) })
	t.Run("Ctrl-C", func(t *testing.T) { runCancelled(t, dev.base, dev.key(t)) })
	t.Run("Ctrl-C twice", func(t *testing.T) { runQuitWhileCancelling(t, dev.base, dev.key(t)) })
}

// interruptedRun is a `run` of a three-output job in this process, whose
// Ctrl-C the test sends.
type interruptedRun struct {
	sigs           chan os.Signal
	stdout, stderr *syncBuffer
	exit           chan int
	out            string
	api            *client.Client
}

// startRun starts `run` and waits until the progress bar shows outputs
// delivered (up to contract.StepsPerJob at once), not all.
func startRun(t *testing.T, base, key string) *interruptedRun {
	t.Helper()
	env := map[string]string{"TP_BASE_URL": base, "TP_API_KEY": key, "HOME": t.TempDir()}
	r := &interruptedRun{
		sigs:   make(chan os.Signal, 2),
		stdout: &syncBuffer{},
		stderr: &syncBuffer{},
		exit:   make(chan int, 1),
		out:    t.TempDir(),
		api:    client.New(base, key),
	}
	u := &userRun{
		stdin:    strings.NewReader(""),
		stdout:   r.stdout,
		stderr:   r.stderr,
		env:      func(k string) string { return env[k] },
		signals:  r.sigs,
		terminal: true,
	}
	go func() {
		r.exit <- userMain(context.Background(), append([]string{"run", "pattern.generate", "--set", "count=8", "--out",
			r.out}, stripes...), u)
	}()
	require.Eventually(
		t,
		func() bool { return regexp.MustCompile(`\([1-7]/8\)`).MatchString(r.stderr.String()) },
		60*time.Second,
		20*time.Millisecond,
		"outputs delivered: %q",
		r.stderr.String(),
	)
	return r
}

// exitCode waits for the run to end.
func (r *interruptedRun) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.exit:
		return code
	case <-time.After(60 * time.Second):
		t.Fatalf("run did not end; stderr: %q", r.stderr.String())
	}
	return -1
}

// runCancelled: after Ctrl-C the run says what the service says — the
// outputs delivered of the total, the charge the service made and why the
// job ended — and downloads the delivered outputs, which were charged.
func runCancelled(t *testing.T, base, key string) {
	r := startRun(t, base, key)
	r.sigs <- os.Interrupt
	require.Equal(t, 1, r.exitCode(t), "a cancelled job exits 1; stderr: %q", r.stderr.String())

	lines := strings.Split(strings.TrimSpace(r.stdout.String()), "\n")
	require.GreaterOrEqual(t, len(lines), 2, r.stdout.String())
	job, err := r.api.Job(context.Background(), lines[0])
	require.NoError(t, err)
	require.Equal(t, "cancelled", *job.Outcome)
	done := job.Progress.Done
	require.True(t, done >= 1 && done < 8, "stopped early: %d", done)
	require.NotNil(t, job.Credits.Charged)
	est, err := r.api.Estimate(context.Background(), "pattern.generate", map[string]any{"kind": "stripes",
		"colors": []string{"#1F3A5F", "#F2C14E"}, "seed": 3, "count": 8})
	require.NoError(t, err)
	require.Equal(t, int64(done)*est.PricePerOutput, *job.Credits.Charged, "the job object says what was charged")

	stderr := r.stderr.String()
	require.Regexp(
		t,
		fmt.Sprintf(`cancelled \d+%% \(%d/8\)\n`, done),
		stderr,
		"the bar's last line: what was delivered of how many",
	)
	require.NotContains(t, stderr, "(8/8)")
	require.NotContains(t, stderr, "100%")
	require.Contains(t, stderr, "taskplatform: "+errorMessage(t, job.Error)+" (cancelled)", "why it ended")
	require.Equal(
		t,
		fmt.Sprintf("cancelled: %d output(s), %d service_credits charged", done, *job.Credits.Charged),
		lines[1],
		"the service's own charge",
	)
	files := lines[2:]
	require.Len(t, files, done, "every delivered output is downloaded: %q", r.stdout.String())
	for _, f := range files {
		require.FileExists(t, f)
		require.Equal(t, r.out, filepath.Dir(f))
	}
}

// runQuitWhileCancelling: a second Ctrl-C while the cancel is under way
// quits at once and says the job is being cancelled, not that it goes on;
// the job then ends cancelled.
func runQuitWhileCancelling(t *testing.T, base, key string) {
	r := startRun(t, base, key)
	r.sigs <- os.Interrupt
	r.sigs <- os.Interrupt
	require.Equal(t, 130, r.exitCode(t), "stderr: %q", r.stderr.String())
	stderr := r.stderr.String()
	require.Regexp(t, `quit; job j_\S+ is being cancelled`, stderr)
	require.NotContains(t, stderr, "goes on")
	id := regexp.MustCompile(`job (j_\S+) submitted`).FindStringSubmatch(stderr)[1]
	require.Eventually(t, func() bool {
		j, err := r.api.Job(context.Background(), id)
		return err == nil && j.Outcome != nil && *j.Outcome == "cancelled"
	}, 60*time.Second, 100*time.Millisecond, "the job was cancelled")
}

// errorMessage is the message of an error object.
func errorMessage(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var e struct {
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(raw, &e))
	require.NotEmpty(t, e.Message)
	return e.Message
}

// runInTerminal runs a eight-output job (four steps at a time) in a pseudo-terminal: the progress
// bar shows outputs delivered, Ctrl-C cancels the job.
func runInTerminal(t *testing.T, env []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(
		ctx,
		binary,
		append([]string{"run", "pattern.generate", "--set", "count=8", "--out", t.TempDir()}, stripes...)...)
	cmd.Env = append(env, "TERM=xterm")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 140})
	require.NoError(t, err)
	defer tty.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	seen := func(re *regexp.Regexp) func() bool {
		return func() bool { mu.Lock(); defer mu.Unlock(); return re.Match(screen.Bytes()) }
	}
	text := func() string { mu.Lock(); defer mu.Unlock(); return screen.String() }
	require.Eventually(
		t,
		seen(regexp.MustCompile(`[1-7]/8`)),
		60*time.Second,
		50*time.Millisecond,
		"the progress bar shows outputs delivered: %q",
		text(),
	)
	_, err = tty.Write([]byte{3}) // Ctrl-C
	require.NoError(t, err)
	require.Eventually(
		t,
		seen(regexp.MustCompile(`cancelling job j_`)),
		10*time.Second,
		50*time.Millisecond,
		"%q",
		text(),
	)
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "a cancelled job exits non-zero: %q", text())
	require.Equal(t, 1, exit.ExitCode())
	require.Eventually(
		t,
		seen(regexp.MustCompile(`cancelled: [1-7] output\(s\), \d+ service_credits charged`)),
		5*time.Second,
		50*time.Millisecond,
		"how the job ended: %q",
		text(),
	)
	require.Regexp(t, `cancelled \d+% \([1-7]/8\)`, text(), "the bar ends on what was delivered")
	require.NotContains(t, text(), "(8/8)", "never drawn as if every output was delivered")
	_, _ = io.Copy(io.Discard, tty)
}
