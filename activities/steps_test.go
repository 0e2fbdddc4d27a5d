package activities_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestRunStepStoresEachOutputOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)
	in := jobInput(u, 6, 3)
	admit(t, env, acts, in)

	first := mustExec[contract.StepResult](t, env, acts.RunStep, leavingTheQueue(stepOf(in, 0)))
	j := job(t, db, in.JobID)
	require.Equal(t, contract.LifecycleRunning, j.Lifecycle, "the step that leaves the queue starts the job")
	require.Equal(t, 2, *j.ProgressTotal, "with its plan's total")
	require.Equal(t, "drawing tiles", j.PublicPhase())
	require.NotNil(t, j.StartedAt)
	require.NotEmpty(t, first.FileID)
	f, err := models.FileByID(ctx, db, first.FileID)
	require.NoError(t, err)
	require.Equal(t, "art", f.Kind(), "a job's output is an art: handle")
	require.Equal(t, u.ID, f.UserID)
	require.Equal(t, "image/png", f.MediaType)
	data, err := acts.Blob.ReadAll(ctx, f.BlobKey)
	require.NoError(t, err)
	require.EqualValues(t, len(data), f.Size)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	require.NoError(t, err, "the stored output is a PNG")
	require.Equal(t, 512, cfg.Width)
	require.Equal(t, 512, cfg.Height)
	w, h, ok := f.ImageSize()
	require.True(t, ok)
	require.Equal(t, [2]int{512, 512}, [2]int{w, h}, "the file's data says its size")
	require.Equal(t, 1, job(t, db, in.JobID).ProgressDone)

	// The same step again (a retry, or a replayed workflow) records nothing new.
	again := mustExec[contract.StepResult](t, env, acts.RunStep, stepOf(in, 0))
	require.Equal(t, first.FileID, again.FileID)
	n, err := models.Delivered(ctx, db, in.JobID)
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Equal(t, 1, job(t, db, in.JobID).ProgressDone)

	second := mustExec[contract.StepResult](t, env, acts.RunStep, stepOf(in, 1))
	require.NotEqual(t, first.FileID, second.FileID)
	require.Equal(t, 2, job(t, db, in.JobID).ProgressDone)
}

func TestRunStepFailsForGoodWhenTheTaskCannot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 100)
	other := newUser(t, db, 0)

	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing.png":
			http.NotFound(w, r)
		case "/tiny.png":
			_, _ = w.Write(pngOf(t, 4, 4))
		default:
			_, _ = w.Write([]byte("not an image"))
		}
	}))
	t.Cleanup(srv.Close)
	acts.Fetch = trusting(srv, true)

	tiny := upload(t, db, acts.Blob, u, pngOf(t, 4, 4), 4, 4)
	othersMotif := upload(t, db, acts.Blob, other, pngOf(t, 64, 64), 64, 64)
	deleted := upload(t, db, acts.Blob, u, pngOf(t, 64, 64), 64, 64)
	require.NoError(t, db.Delete(&models.File{}, "id = ?", deleted[len("file:"):]).Error)

	for _, tc := range []struct {
		name  string
		image string
		msg   string // the message the caller reads
	}{
		{name: "motif too small", image: tiny, msg: "the image is 4 × 4 px; it must be 8 to 8192 px a side"},
		{name: "unknown handle", image: "file:nosuchfile",
			msg: "the image at image could not be fetched: file:nosuchfile no longer exists"},
		{name: "another user's file", image: othersMotif,
			msg: "the image at image could not be fetched: " + othersMotif + " no longer exists"},
		{name: "deleted upload", image: deleted,
			msg: "the image at image could not be fetched: " + deleted + " no longer exists"},
		{name: "art handle of an upload", image: "art:" + tiny[len("file:"):], msg: "no longer exists"},
		{name: "not https", image: "http://example.test/motif.png",
			msg: "the image at image could not be fetched: it is not an https:// address"},
		{name: "URL answers 404", image: srv.URL + "/missing.png",
			msg: "the image at image could not be fetched: the server answered 404 Not Found"},
		{name: "URL is not an image", image: srv.URL + "/text",
			msg: "image: the file could not be read as PNG, JPEG, WebP, GIF or BMP"},
		{name: "URL image too small", image: srv.URL + "/tiny.png", msg: "the image is 4 × 4 px"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := jobInput(
				u,
				6,
				3,
				withTask(
					"pattern.repeat",
					map[string]any{"image": tc.image, "layouts": []string{"grid"}, "resolution": "512"},
				),
			)
			admit(t, env, acts, in)

			_, err := env.ExecuteActivity(acts.RunStep, stepOf(in, 0))
			appErr := appError(t, err)
			require.Equal(t, contract.ErrTypeProcessing, appErr.Type())
			require.True(t, appErr.NonRetryable(), "retrying cannot help")
			require.Contains(t, appErr.Error(), tc.msg)
			n, err := models.Delivered(ctx, db, in.JobID)
			require.NoError(t, err)
			require.Zero(t, n, "nothing delivered, nothing to charge")
		})
	}
}

// TestRunStepRetriesWhatMayPass checks that a fetch a retry can fix fails
// retryably, and that the retry then delivers.
func TestRunStepRetriesWhatMayPass(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)

	var busy atomic.Bool
	busy.Store(true)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if busy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write(pngOf(t, 32, 32))
	}))
	t.Cleanup(srv.Close)
	acts.Fetch = trusting(srv, true)

	in := jobInput(
		u,
		6,
		3,
		withTask(
			"pattern.repeat",
			map[string]any{"image": srv.URL + "/motif.png", "layouts": []string{"brick"}, "resolution": "512"},
		),
	)
	admit(t, env, acts, in)
	_, err := env.ExecuteActivity(acts.RunStep, stepOf(in, 0))
	require.False(t, appError(t, err).NonRetryable(), "a busy server may answer next time: %v", err)

	busy.Store(false)
	res := mustExec[contract.StepResult](t, env, acts.RunStep, stepOf(in, 0))
	require.NotEmpty(t, res.FileID)
}

func TestRunStepOfAnUnknownTaskFailsForGood(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)
	in := jobInput(u, 6, 3, withTask("pattern.nosuchtask", map[string]any{}))
	admit(t, env, acts, in)

	for _, step := range []contract.StepInput{leavingTheQueue(stepOf(in, 0)), stepOf(in, 1)} {
		_, err := env.ExecuteActivity(acts.RunStep, step)
		appErr := appError(t, err)
		require.Equal(t, contract.ErrTypeProcessing, appErr.Type())
		require.True(t, appErr.NonRetryable())
	}
	require.Equal(t, contract.LifecycleQueued, job(t, db, in.JobID).Lifecycle,
		"a step that cannot run starts nothing")
}

func TestRunStepLoadsMotifs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 100)

	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(pngOf(t, 48, 32))
	}))
	t.Cleanup(srv.Close)
	acts.Fetch = trusting(srv, true)

	registered, _, err := models.RegisterURL(
		ctx,
		db,
		&models.File{ID: models.NewID(""), UserID: u.ID, SourceURL: srv.URL + "/registered.png"},
		time.Now(),
	)
	require.NoError(t, err)
	tile := jobInput(
		u,
		6,
		3,
		withTask("pattern.generate", map[string]any{"colors": []string{"#0B3D2E"}, "resolution": "512"}),
	)
	admit(t, env, acts, tile)
	art := mustExec[contract.StepResult](t, env, acts.RunStep, stepOf(tile, 0))

	for _, tc := range []struct {
		name  string
		image string
	}{
		{name: "upload", image: upload(t, db, acts.Blob, u, pngOf(t, 64, 64), 64, 64)},
		{name: "earlier output", image: "art:" + art.FileID},
		{name: "catalogue example", image: "file:example_leaf"},
		{name: "https URL", image: srv.URL + "/motif.png"},
		{name: "registered URL", image: registered.Handle()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := jobInput(
				u,
				6,
				3,
				withTask(
					"pattern.repeat",
					map[string]any{"image": tc.image, "layouts": []string{"half_drop"}, "resolution": "512"},
				),
			)
			admit(t, env, acts, in)
			res := mustExec[contract.StepResult](t, env, acts.RunStep, stepOf(in, 0))
			f, err := models.FileByID(ctx, db, res.FileID)
			require.NoError(t, err)
			var meta map[string]any
			require.NoError(t, json.Unmarshal([]byte(f.Data), &meta))
			require.Equal(t, tc.image, meta["image"], "the tile's data names the motif as sent")
			require.Equal(t, "half_drop", meta["layout"])
		})
	}
}
