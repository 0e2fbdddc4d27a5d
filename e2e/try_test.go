package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The try* helpers are for goroutines other than the test's: they return
// errors instead of failing the test (require must run on the test's own
// goroutine), and the test asserts on what they collected.

// tryDo is do without the test: it sends a request with the stack's key and
// extra headers and returns the answer or the error.
func (s *testStack) tryDo(method, path string, body any, headers ...string) (response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.srv.URL+path, rd)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Key "+s.key)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: res.StatusCode, header: res.Header, body: raw}, nil
}

// trySubmit is submit without the test.
func (s *testStack) trySubmit(input map[string]any, headers ...string) (response, error) {
	return s.tryDo(http.MethodPost, "/v1/tasks/pattern.generate", input, headers...)
}

// decode is json without the test: the answer's JSON object.
func (r response) decode() (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		return nil, fmt.Errorf("%w; body: %s", err, r.body)
	}
	return m, nil
}

// errorFields is the answer's error object, or nil when it has none.
func (r response) errorFields() map[string]any {
	m, err := r.decode()
	if err != nil {
		return nil
	}
	e, _ := m["error"].(map[string]any)
	return e
}
