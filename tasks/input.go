package tasks

import (
	"encoding/json"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// Runners read validated input through these functions, which accept the
// number forms an input takes on its way (int64 from Validate, float64 after
// a JSON round trip through Temporal, json.Number).

// String is the string at key, or def when absent or not a string.
func String(in map[string]any, key, def string) string {
	if s, ok := in[key].(string); ok {
		return s
	}
	return def
}

// Number is the number at key, or def when absent or not a number.
func Number(in map[string]any, key string, def float64) float64 {
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

// Integer is the integer at key, or def when absent, not a number or out of
// range; a fraction is cut toward zero.
func Integer(in map[string]any, key string, def int64) int64 {
	f := Number(in, key, math.NaN())
	if math.IsNaN(f) || f < math.MinInt64 || f > math.MaxInt64 {
		return def
	}
	if v, ok := in[key].(int64); ok {
		return v
	}
	return int64(f)
}

// Bool is the boolean at key, or def when absent or not a boolean.
func Bool(in map[string]any, key string, def bool) bool {
	if b, ok := in[key].(bool); ok {
		return b
	}
	return def
}

// Strings is the list of strings at key; items that are not strings are
// left out.
func Strings(in map[string]any, key string) []string {
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

// ParseColour reads a colour written #RRGGBB (the form ColourPattern
// accepts) as an opaque RGBA colour.
func ParseColour(hex string) color.RGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}
