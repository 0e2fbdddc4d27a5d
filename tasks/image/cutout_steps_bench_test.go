package image

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
)

// BenchmarkCutoutSteps cuts out the 8 images of one
// image.remove_background job (each 1600 × 1250, a red product on a pale
// sweep, one pixel its own) one at a time and 4 at once, as the worker
// runs a job's outputs before and after parallel outputs, and reports the
// CPU of this process per output and the job's wall time.
//
//	go test ./tasks/image/ -run '^$' -bench CutoutSteps -benchtime 3x
func BenchmarkCutoutSteps(b *testing.B) {
	const n = 8
	d := task(b, "image.remove_background")
	f, refs := files{}, make([]string, n)
	for i := range refs {
		refs[i] = fmt.Sprintf("file:p%d", i)
		f[refs[i]] = cutoutPhoto(b, i)
	}
	body := fmt.Sprintf(`{"images":["%s"]}`, joinRefs(refs))
	in, err := d.Validate([]byte(body))
	require.NoError(b, err)
	ctx := tasks.WithLoader(context.Background(), f)
	for _, at := range []int{1, 4} {
		b.Run(map[int]string{1: "one_at_a_time", 4: "four_at_once"}[at], func(b *testing.B) {
			var cpu, wall time.Duration
			rounds := 0
			for b.Loop() {
				rounds++
				t0, c0 := time.Now(), rusageCPU()
				var wg sync.WaitGroup
				next := make(chan int)
				for range at {
					wg.Go(func() {
						for i := range next {
							_, err := d.Runner.Step(ctx, in, i)
							require.NoError(b, err)
						}
					})
				}
				for i := range n {
					next <- i
				}
				close(next)
				wg.Wait()
				cpu += rusageCPU() - c0
				wall += time.Since(t0)
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(rounds*n), "cpu-ms/output")
			b.ReportMetric(wall.Seconds()/float64(rounds), "s/job")
		})
	}
}

func joinRefs(refs []string) string {
	out := refs[0]
	for _, r := range refs[1:] {
		out += `","` + r
	}
	return out
}

// cutoutPhoto is image k of the job: pixel (k, 0) dark.
func cutoutPhoto(b *testing.B, k int) []byte {
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
	img.SetNRGBA(k, 0, color.NRGBA{20, 20, 20, 255})
	var buf bytes.Buffer
	require.NoError(b, png.Encode(&buf, img))
	return buf.Bytes()
}

// rusageCPU is the user + system time of this process so far.
func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
