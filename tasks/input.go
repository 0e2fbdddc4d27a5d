package tasks

import (
	"encoding/json"
	"math"
)

// Runners read validated input through these helpers, which accept the
// number forms an input takes on its way (int64 from Validate, float64 after
// a JSON round trip through Temporal, json.Number).

func str(in map[string]any, key, def string) string {
	if s, ok := in[key].(string); ok {
		return s
	}
	return def
}

func num(in map[string]any, key string, def float64) float64 {
	switch v := in[key].(type) {
	case int64:
		return float64(v)
	case int:
		return float64(v)
	case float64:
		return v
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
	}
	return def
}

func integer(in map[string]any, key string, def int64) int64 {
	f := num(in, key, math.NaN())
	if math.IsNaN(f) || f < math.MinInt64 || f > math.MaxInt64 {
		return def
	}
	if v, ok := in[key].(int64); ok {
		return v
	}
	return int64(f)
}

func boolean(in map[string]any, key string, def bool) bool {
	if b, ok := in[key].(bool); ok {
		return b
	}
	return def
}

func strList(in map[string]any, key string) []string {
	var out []string
	switch v := in[key].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	case []string:
		out = append(out, v...)
	}
	return out
}
