package cogtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
)

// schema is the part of Cog's /openapi.json the engine reads: its Output
// component, a list of files (List[Path]) when Files is set, else a file
// (http.py, create_app: OutputType in the app's OpenAPI schema), or a
// list of strings (List[str]) when Strings is set: a file is "format":
// "uri" (python/cog/types.py, Path's __modify_schema__), a str is not.
func (s *Server) schema(w http.ResponseWriter, _ *http.Request) {
	out := map[string]any{"title": "Output", "type": "string", "format": "uri"}
	switch {
	case s.o.Strings > 0:
		out = map[string]any{"title": "Output", "type": "array", "items": map[string]any{"type": "string"}}
	case s.o.Files > 0:
		out = map[string]any{"title": "Output", "type": "array",
			"items": map[string]any{"type": "string", "format": "uri"}}
	}
	writeJSON(w, http.StatusOK, map[string]any{"components": map[string]any{"schemas": map[string]any{"Output": out}}})
}

// health answers as http.py's healthcheck does: the setup's state until it
// has succeeded, then BUSY while a prediction runs (runner.is_busy) or
// READY.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	status := "READY"
	setup := map[string]any{"status": "succeeded"}
	switch {
	case s.setupFailed():
		status = "SETUP_FAILED"
		setup = map[string]any{"status": "failed", "logs": "Traceback (most recent call last): ...\n"}
	case !s.ready():
		status, setup = "STARTING", map[string]any{}
	case s.Running() > 0:
		status = "BUSY"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": status, "setup": setup})
}

// output is what an ended prediction answers: a file as a string, or
// Files of them as a JSON array in the predictor's order (a List[Path]
// output): json.py's upload_files maps a list element by element, each
// file to a data URI (sync, files.upload_file) or to the upload store's
// URL (--upload-url).
func (s *Server) output(p *prediction) any {
	if s.o.Strings > 0 {
		words := make([]any, s.o.Strings)
		for k := range words {
			words[k] = fmt.Sprintf("word-%d", k)
		}
		return words
	}
	n := max(s.o.Files, 1)
	refs := make([]any, n)
	for k := range refs {
		switch {
		case s.o.OutputURL != "":
			refs[k] = s.o.OutputURL
		case s.o.AsURL:
			refs[k] = fmt.Sprintf("%s/files/%d/%d", s.URL, p.serial, k)
		case p.async: // no upload URL: the predictor's own path (runner.py, _upload_files)
			refs[k] = fmt.Sprintf("/tmp/cogtest%d/out-%d.png", p.serial, k)
		default: // files.py, upload_file: a data URI
			refs[k] = "data:image/png;base64," + base64.StdEncoding.EncodeToString(s.file1(p.Input, k))
		}
	}
	if s.o.Files == 0 {
		return refs[0]
	}
	return refs
}

// file1 is file k of a prediction of input: width × height pixels when
// Sized and the input asks for them, else 16 × 16.
func (s *Server) file1(input map[string]any, k int) []byte {
	if s.o.Output != nil {
		return s.o.Output(input)
	}
	raw, _ := json.Marshal(input)
	sum := sha256.Sum256(append(raw, byte(k)))
	w, h := 16, 16
	if s.o.Sized {
		w, h = side(input["width"]), side(input["height"])
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = sum[i%3]
	}
	img.Set(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// side is an image side the input asks for, 16 when it asks none.
func side(v any) int {
	n, err := strconv.Atoi(fmt.Sprint(v))
	if err != nil || n < 1 || n > 4096 {
		return 16
	}
	return n
}

// file serves file k of prediction n (AsURL): an upload store's copy,
// kept after the prediction is forgotten.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	var n, k int
	if _, err := fmt.Sscan(r.PathValue("n"), &n); err != nil {
		http.NotFound(w, r)
		return
	}
	_, _ = fmt.Sscan(r.PathValue("k"), &k)
	s.mu.Lock()
	input, ok := s.made[n]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.o.Redirect != "" {
		http.Redirect(w, r, s.o.Redirect, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(s.file1(input, k))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
