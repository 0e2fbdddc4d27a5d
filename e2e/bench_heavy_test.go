package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
)

// heavyClients are the concurrency levels of the heavy-jobs table.
var heavyClients = []int{1, 16}

// heavyOutputs is the outputs of a heavy job.
const heavyOutputs = 8

// heavyJob is a kind of job of the heavy-jobs table: many outputs, each
// real work on a photo of about 2 megapixels.
type heavyJob struct {
	name, task string
	// body is the input of a job of n outputs from the uploaded photo.
	body func(photo string, n int) []byte
}

var heavyJobs = []heavyJob{
	{
		name: "photoshoot.create, 8 shots", task: "photoshoot.create",
		body: func(photo string, n int) []byte {
			poses, per := []string{"pose:ps_woman_front"}, 1
			if n > 1 {
				poses, per = []string{"pose:ps_woman_front", "pose:ps_woman_walking"}, n/2
			}
			raw, _ := json.Marshal(map[string]any{"product": photo, "background": "background:bg_studio_white",
				"poses": poses, "count_per_pose": per})
			return raw
		},
	},
	{
		name: "image.remove_background, 8 × 2 MP", task: "image.remove_background",
		body: func(photo string, n int) []byte {
			images := make([]string, n)
			for i := range images {
				images[i] = photo
			}
			raw, _ := json.Marshal(map[string]any{"images": images})
			return raw
		},
	},
}

// heavyMode is how many outputs of a job run at once: before parallel
// outputs (one at a time) or after (the service's default).
type heavyMode struct {
	name        string
	stepsPerJob int
}

var heavyModes = []heavyMode{{"before", 1}, {"after", 0}}

// heavyPhase is n jobs of one kind over c clients, each client submitting
// its next job when its last one ended.
type heavyPhase struct {
	jobs, outputs int
	seconds       []float64 // each job's time, submit to its workflow's close
	elapsed       time.Duration
	cpu           time.Duration // taskplatform + Temporal server + PostgreSQL
}

func (p heavyPhase) rate() float64 {
	if p.elapsed <= 0 {
		return 0
	}
	return float64(p.jobs) / p.elapsed.Seconds()
}

// cpuPerOutput is the CPU of every process per delivered output, in ms.
func (p heavyPhase) cpuPerOutput() float64 {
	if p.outputs == 0 {
		return 0
	}
	return float64(p.cpu.Microseconds()) / 1000 / float64(p.outputs)
}

// heavyFleetClients is the concurrency of the fleet row: two workers
// beside one, "after" only.
const heavyFleetClients = 16

// heavyResults are the phases by job kind, mode and clients, each kind's
// one-output job by mode, and each kind's 8-output jobs on two workers at
// heavyFleetClients.
type heavyResults struct {
	phases map[string]map[string]map[int]heavyPhase
	single map[string]map[string]heavyPhase
	fleet  map[string]heavyPhase
}

// heavy runs the heavy-jobs table: for each mode a stack of its own (the
// photoshoots library written, a 1600 × 1250 photo uploaded), and on it
// each kind's one-output job at one client, then its 8-output jobs at each
// level of heavyClients; last, on a stack of two workers ("after"), each
// kind's 8-output jobs at heavyFleetClients.
func (r *benchRun) heavy() heavyResults {
	res := heavyResults{phases: map[string]map[string]map[int]heavyPhase{}, single: map[string]map[string]heavyPhase{},
		fleet: map[string]heavyPhase{}}
	photo := productPNG(r.b, 1600, 1250)
	stack := func(o benchStackOptions) (*benchRun, string) {
		o.photoshoots = true
		s := newBenchStack(r.b, 16, o)
		ref, err := s.upload(context.Background(), "product.png", photo)
		require.NoError(r.b, err, "upload the heavy jobs' photo")
		return &benchRun{b: r.b, cfg: r.cfg, stack: s, temporalPID: r.temporalPID}, ref
	}
	for _, m := range heavyModes {
		run, ref := stack(benchStackOptions{stepsPerJob: m.stepsPerJob})
		for _, k := range heavyJobs {
			if res.phases[k.name] == nil {
				res.phases[k.name], res.single[k.name] = map[string]map[int]heavyPhase{}, map[string]heavyPhase{}
			}
			res.single[k.name][m.name] = run.heavyPhase(k, ref, 1, 1, r.cfg.count(3, 1), m.name)
			res.phases[k.name][m.name] = map[int]heavyPhase{}
			for _, c := range heavyClients {
				res.phases[k.name][m.name][c] = run.heavyPhase(k, ref, heavyOutputs, c, r.cfg.count(4+2*c, c), m.name)
			}
		}
		r.errors = append(r.errors, run.errors...)
	}
	run, ref := stack(benchStackOptions{secondWorker: true})
	c := heavyFleetClients
	for _, k := range heavyJobs {
		res.fleet[k.name] = run.heavyPhase(k, ref, heavyOutputs, c, r.cfg.count(4+2*c, c), "after, 2 workers")
	}
	r.errors = append(r.errors, run.errors...)
	return res
}

// heavyPhase runs n jobs of kind k with outputs outputs over c clients.
func (r *benchRun) heavyPhase(k heavyJob, photo string, outputs, c, n int, mode string) heavyPhase {
	body := k.body(photo, outputs)
	cpu0, tcpu0, pg0 := cpuTime("self"), r.temporalCPU(), postgresCPU()
	t0 := time.Now()
	lat, errs := r.drive(c, n, func(ctx context.Context) error {
		id, err := r.apiPost(ctx, k.task, body, false)
		if err != nil {
			return err
		}
		var out contract.JobResult
		if err := r.stack.temporal.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil {
			return fmt.Errorf("job %s: %w", id, err)
		}
		if out.Delivered != outputs {
			return fmt.Errorf("job %s delivered %d of %d outputs", id, out.Delivered, outputs)
		}
		return nil
	})
	p := heavyPhase{jobs: len(lat), outputs: len(lat) * outputs, elapsed: time.Since(t0),
		cpu: cpuTime("self") - cpu0 + r.temporalCPU() - tcpu0 + postgresSince(pg0)}
	for _, ms := range lat {
		p.seconds = append(p.seconds, ms/1000)
	}
	r.noteErrors(&benchSide{name: "API"}, fmt.Sprintf("%s, %d outputs, %s, %d clients", k.name, outputs, mode, c), errs)
	fmt.Fprintf(os.Stderr, "bench: heavy    %-36s %d outputs, %-16s %2d clients: %3d jobs in %5.1fs, p50 %.2fs, "+
		"%.1f ms CPU per output\n", k.name, outputs, mode, c, p.jobs, p.elapsed.Seconds(), pct(p.seconds, 50),
		p.cpuPerOutput())
	return p
}

func printHeavyTable(out io.Writer, res heavyResults) {
	if len(res.phases) == 0 {
		return
	}
	fmt.Fprintf(out, "\nHeavy jobs of %d outputs, each client submitting its next job when its last ended (before: one "+
		"output at a time; after: up to %d at once; CPU: taskplatform + Temporal server + PostgreSQL):\n",
		heavyOutputs, contract.StepsPerJob)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "job\tclients\tjobs\tjob p50 before (s)\tafter (s)\tafter/before\tjobs/s before\tafter\t"+
		"CPU/output before (ms)\tafter (ms)\t1-output job CPU (ms)\t")
	for _, k := range heavyJobs {
		before, after := res.phases[k.name]["before"], res.phases[k.name]["after"]
		for _, c := range heavyClients {
			b, a := before[c], after[c]
			tb, ta := pct(b.seconds, 50), pct(a.seconds, 50)
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%s\t%.2f\t%.2f\t%.1f\t%.1f\t%.1f\t\n", k.name, c, a.jobs, tb, ta,
				ratio(ta, tb), b.rate(), a.rate(), b.cpuPerOutput(), a.cpuPerOutput(),
				res.single[k.name]["after"].cpuPerOutput())
		}
	}
	_ = tw.Flush()
	var singles []string
	for _, k := range heavyJobs {
		s := res.single[k.name]["after"]
		singles = append(singles, fmt.Sprintf("%s %.2f s", k.task, pct(s.seconds, 50)))
	}
	fmt.Fprintf(out, "a one-output job alone takes %s\n", strings.Join(singles, ", "))
	printFleet(out, res)
}

// printFleet prints each kind's jobs/s at heavyFleetClients on two workers
// beside one ("after"), and the heavy table's targets with what this run
// measured.
func printFleet(out io.Writer, res heavyResults) {
	c := heavyFleetClients
	fmt.Fprintf(out, "\nFleet, %d-output jobs at %d clients, \"after\" (2 workers: a second worker in this process "+
		"on the same task queue, with its own activity slots, pollers and database pool — not a second OS process; "+
		"the two share this process's CPUs):\n", heavyOutputs, c)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "job\tclients\tjobs\tjobs/s 1 worker\t2 workers\t2 workers/1 worker\t"+
		"CPU/output 1 worker (ms)\t2 workers (ms)\t")
	var fleet, alone []string
	for _, k := range heavyJobs {
		one, two := res.phases[k.name]["after"][c], res.fleet[k.name]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%s\t%.1f\t%.1f\t\n", k.name, c, two.jobs, one.rate(), two.rate(),
			ratio(two.rate(), one.rate()), one.cpuPerOutput(), two.cpuPerOutput())
		fleet = append(fleet, fmt.Sprintf("%s %s", k.task, ratio(two.rate(), one.rate())))
		b, a := res.phases[k.name]["before"][1], res.phases[k.name]["after"][1]
		alone = append(alone, fmt.Sprintf("%s %s", k.task, ratio(pct(a.seconds, 50), pct(b.seconds, 50))))
	}
	_ = tw.Flush()
	fmt.Fprintf(out, "target: %d-output job at 1 client, p50 after/before ≤ 0.6: %s\n", heavyOutputs,
		strings.Join(alone, ", "))
	fmt.Fprintf(out, "target: jobs/s at %d clients, 2 workers / 1 worker ≥ 1.0: %s\n", c, strings.Join(fleet, ", "))
}

// upload sends a file to POST /v1/files and answers its file: handle.
func (s *benchStack) upload(ctx context.Context, name string, data []byte) (string, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		return "", err
	}
	if _, err := fw.Write(data); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.srv.URL+"/v1/files", &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Key "+s.key)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := s.http.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var f struct {
		File string `json:"file"`
	}
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated || json.Unmarshal(raw, &f) != nil || f.File == "" {
		return "", fmt.Errorf("upload %s: status %d: %s", name, res.StatusCode, raw)
	}
	return f.File, nil
}
