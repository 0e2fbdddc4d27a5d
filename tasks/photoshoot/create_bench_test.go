package photoshoot

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// photoLoader serves one product photo as file:bench_product.
type photoLoader []byte

func (l photoLoader) Load(context.Context, string) ([]byte, error) { return l, nil }

// benchPhoto is a 1600 × 1250 PNG of a red product on a pale sweep, the
// make bench heavy table's photo.
// Job k's photo has pixel (k, 0) dark, so each job's photo is its own.
func benchPhoto(b *testing.B, k int) []byte {
	const w, h = 1600, 1250
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{232, 232, 230, 255}
			if x > w/5 && x < 4*w/5 && y > h/8 && y < 7*h/8 {
				c = color.NRGBA{200, 30, 40, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	img.SetNRGBA(k%w, 0, color.NRGBA{20, 20, 20, 255})
	var buf bytes.Buffer
	require.NoError(b, png.Encode(&buf, img))
	return buf.Bytes()
}

// BenchmarkShootSteps runs the 8 shots of one photoshoot.create job (two
// poses × 4) one at a time and 4 at once, as the worker runs a job's
// outputs before and after parallel outputs, and reports the CPU of this
// process per shot and the job's wall time. Each round is a new job whose
// photo differs from every other round's by one pixel. "own_product" runs
// each shot as if it were a job of its own, so each decodes and cuts out
// the photo, as every shot did before the job's shots shared it.
//
//	go test ./tasks/photoshoot/ -run '^$' -bench ShootSteps -benchtime 3x
func BenchmarkShootSteps(b *testing.B) {
	r := tasks.NewRegistry()
	require.NoError(b, r.Add(imgfam.Family()))
	require.NoError(b, r.Add(Family()))
	def, err := r.Lookup("photoshoot.create")
	require.NoError(b, err)
	in, err := def.Validate([]byte(`{"product":"file:bench_product","background":"background:bg_studio_white",` +
		`"poses":["pose:ps_woman_front","pose:ps_woman_walking"],"count_per_pose":4}`))
	require.NoError(b, err)
	n := def.Runner.Plan(in).Steps
	require.Equal(b, 8, n)
	jobs := 0
	for _, shared := range []bool{false, true} {
		for _, at := range []int{1, 4} {
			name := map[bool]string{false: "own_product", true: "shared_product"}[shared] + "/" +
				map[int]string{1: "one_at_a_time", 4: "four_at_once"}[at]
			b.Run(name, func(b *testing.B) {
				var cpu, wall time.Duration
				rounds := 0
				for b.Loop() {
					rounds++
					jobs++
					ctx := tasks.WithLoader(context.Background(), photoLoader(benchPhoto(b, jobs)))
					job := func(i int) context.Context {
						if shared {
							return tasks.WithEnv(ctx, tasks.Env{JobID: fmt.Sprintf("j_%d", jobs)})
						}
						return tasks.WithEnv(ctx, tasks.Env{JobID: fmt.Sprintf("j_%d_%d", jobs, i)})
					}
					t0, c0 := time.Now(), processCPU()
					errs := runSteps(def, in, n, at, job)
					cpu += processCPU() - c0
					wall += time.Since(t0)
					require.Empty(b, errs)
				}
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(rounds*n), "cpu-ms/shot")
				b.ReportMetric(wall.Seconds()/float64(rounds), "s/job")
			})
		}
	}
}

// runSteps runs steps 0..n-1 of in, at of them at once, step i under
// ctx(i), and returns their errors.
func runSteps(def *tasks.Definition, in tasks.Input, n, at int, ctx func(int) context.Context) []error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	next := make(chan int)
	for range at {
		wg.Go(func() {
			for i := range next {
				if _, err := def.Runner.Step(ctx(i), in, i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// processCPU is the user + system time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
