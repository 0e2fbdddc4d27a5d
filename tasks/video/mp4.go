package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// mp4FPS is the frame rate of MP4 outputs.
const mp4FPS = 30

// LookFFmpeg finds the ffmpeg program on PATH; "" when it is not
// installed. Family uses it; NewFamily takes the answer injected.
func LookFFmpeg() string {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		return ""
	}
	return p
}

// frameSource yields the frames of a video one at a time, so a long video
// is never held in memory whole.
type frameSource struct {
	count int
	frame func(i int) *image.NRGBA
}

// encodeMP4 pipes raw RGBA frames to ffmpeg, which encodes H.264 (libx264,
// yuv420p, +faststart) at mp4FPS into a temporary file.
func encodeMP4(ctx context.Context, ffmpeg string, w, h int, src frameSource) ([]byte, error) {
	if ffmpeg == "" {
		return nil, errors.New("ffmpeg is not installed where the job ran")
	}
	dir, err := os.MkdirTemp("", "taskplatform-mp4-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out.mp4")
	cmd := exec.CommandContext(
		ctx,
		ffmpeg,
		"-hide_banner",
		"-loglevel",
		"error",
		"-nostdin",
		"-f",
		"rawvideo",
		"-pix_fmt",
		"rgba",
		"-s",
		fmt.Sprintf("%dx%d", w, h),
		"-framerate",
		strconv.Itoa(mp4FPS),
		"-i",
		"pipe:0",
		"-c:v",
		"libx264",
		"-preset",
		"veryfast",
		"-crf",
		"20",
		"-pix_fmt",
		"yuv420p",
		"-threads",
		"2",
		"-movflags",
		"+faststart",
		"-map_metadata",
		"-1",
		"-fflags",
		"+bitexact",
		"-flags:v",
		"+bitexact",
		"-y",
		out,
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start ffmpeg: %w", err)
	}
	var werr error
	for i := range src.count {
		if werr = ctx.Err(); werr != nil {
			break
		}
		f := src.frame(i)
		if _, werr = stdin.Write(f.Pix[:4*w*h]); werr != nil {
			break
		}
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("ffmpeg: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	if werr != nil {
		return nil, werr
	}
	return os.ReadFile(out)
}
