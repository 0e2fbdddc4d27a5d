package all_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks/all"
)

// FuzzValidate feeds arbitrary bodies to every runnable task: Validate must
// never panic, must answer an *apierr.Error on failure, and an accepted input
// must validate again, estimate, and plan within the schema's bounds.
func FuzzValidate(f *testing.F) {
	for _, d := range all.Registry().Runnable() {
		for _, e := range d.Examples {
			f.Add([]byte(e.Input))
		}
	}
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"colors":null}`, `{"colors":[null]}`, `{"colors":[{}]}`,
		`{"colors":["#000000"],"count":1e400}`, `{"colors":["#000000"],"seed":-1}`,
		`{"colors":["#000000"],"kind":"dots","stripe_angle":45}`, `{"base_color":"#000000","schemes":[[]]}`,
		`{"a":{"b":{"c":[1,2,{"d":null}]}}}`, `{"colors":["#000000"],"count":"1"}`, "{\"colors\":[\"\xff\"]}",
		`{"colors":["#000000"],"colors":["#111111"]}`, `{"base_color":"#FFFFFF","shades":4,"schemes":["monochromatic"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, d := range all.Registry().Runnable() {
			in, err := d.Validate(body)
			if err != nil {
				var ae *apierr.Error
				if !errors.As(err, &ae) {
					t.Fatalf("%s: error %T is not *apierr.Error", d.Name, err)
				}
				continue
			}
			again, _ := json.Marshal(in)
			if _, err := d.Validate(again); err != nil {
				t.Fatalf("%s: accepted input %s fails again: %v", d.Name, again, err)
			}
			credits, _ := d.Estimate(in)
			steps := d.Runner.Plan(in).Steps
			// 14: colour.separate's composite, underbase and 12 separations.
			if steps < 1 || steps > 14 || credits < 1 {
				t.Fatalf("%s: plan %d outputs, estimate %d for %s", d.Name, steps, credits, again)
			}
		}
	})
}
