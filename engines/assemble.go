package engines

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// Assemble is the registry the service serves and runs: every family, the
// built-in tasks cfg routes with their steps on its engines, and the tasks
// cfg declares. Each route or declared task that does not pass its checks
// (check, then the registry's) is refused with one error line on log and
// left out — a refused route leaves its task on the built-in engine, a
// refused task is not served. A nil cfg is the built-in catalogue. The
// error is a family that does not register (a programming error).
func Assemble(cfg *Config, families []tasks.Family, cl Clients, log *zap.Logger) (*tasks.Registry, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if cl.Log == nil {
		cl.Log = log
	}
	built := map[string]model{}
	listens := map[string]string{} // webhook_listen → the engine that has it
	for _, name := range slices.Sorted(maps.Keys(cfg.Engines)) {
		e, err := New(name, cfg.Engines[name], cl)
		if l := cfg.Engines[name].WebhookListen; err == nil && l != "" && !strings.HasSuffix(l, ":0") {
			if other, taken := listens[l]; taken {
				err = fmt.Errorf("engine %s: webhook_listen %s is engine %s's too; give each engine its own port",
					name, l, other)
			}
			listens[l] = name
		}
		if err != nil {
			log.Error("engine refused: its configuration does not hold", zap.String("engine", name), zap.Error(err))
			continue
		}
		if c := cfg.Engines[name]; c.UploadURL != "" && strings.HasSuffix(c.WebhookListen, ":0") {
			log.Warn("engine in mode async listens for webhooks on a free port: a worker that restarts listens "+
				"on the port it last had if it is still free (kept in the temporary directory); if not, Cog "+
				"retries the completion of a prediction to the old one for minutes, busy all the while; give "+
				"webhook_listen a fixed port", zap.String("engine", name))
		}
		if c := cfg.Engines[name]; c.WebhookListen != "" && c.UploadURL == "" {
			log.Warn("engine in mode async has no upload_url: Cog answers async outputs as paths on its own disk, "+
				"so its predictions are held open as in mode sync (outputs come back as data URIs)",
				zap.String("engine", name))
		}
		m := model{engine: e}
		m.shape, m.known = modelOutput(e)
		built[name] = m
	}
	routed := map[string]bool{}
	for fi := range families {
		for _, d := range families[fi].Tasks {
			b, ok := cfg.Routes[d.Name]
			if !ok {
				continue
			}
			routed[d.Name] = true
			if err := route(d, b, built); err != nil {
				log.Error("route refused: the task stays on its built-in engine", zap.String("task", d.Name),
					zap.String("engine", b.Engine), zap.Error(err))
				continue
			}
			log.Info("task routed to an external engine", zap.String("task", d.Name), zap.String("engine", b.Engine))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Routes)) {
		if !routed[name] {
			log.Error("route refused: no built-in task has this name", zap.String("task", name))
		}
	}
	r := tasks.NewRegistry()
	for _, f := range families {
		if err := r.Add(f); err != nil {
			return nil, err
		}
	}
	for _, tc := range cfg.Tasks {
		if err := addDeclared(r, tc, built); err != nil {
			log.Error("task refused: it does not pass the start-up checks and is not served",
				zap.String("task", tc.Name), zap.String("engine", tc.Engine), zap.Error(err))
			continue
		}
		log.Info("task declared on an external engine", zap.String("task", tc.Name), zap.String("engine", tc.Engine))
	}
	return r, nil
}

// model is a usable engine and what it told of its model at start-up:
// whether it answers a file, a list of files or something else (known: it
// told).
type model struct {
	engine tasks.Engine
	shape  modelShape
	known  bool
}

// binding finds the binding's engine and holds the binding to its model.
func binding(b Binding, built map[string]model) (tasks.Engine, error) {
	m, ok := built[b.Engine]
	if !ok {
		return nil, fmt.Errorf("no usable engine is named %q", b.Engine)
	}
	if err := fitsModel(b, m.shape, m.known); err != nil {
		return nil, fmt.Errorf("engine %s: %w", b.Engine, err)
	}
	return m.engine, nil
}

// route puts a built-in task's steps on the binding's engine: its plan,
// input checks and admit stay the built-in task's; each planned output is
// one prediction (or files_per_prediction outputs of one); its docs list
// the engine's failure codes.
func route(d *tasks.Definition, b Binding, built map[string]model) error {
	e, err := binding(b, built)
	if err != nil {
		return err
	}
	if d.Removed || d.Runner == nil {
		return fmt.Errorf("task %s is removed", d.Name)
	}
	if len(b.Input) == 0 {
		return fmt.Errorf("route to %s: input maps nothing", b.Engine)
	}
	types := b.MediaTypes
	if len(types) == 0 {
		types = DefaultMediaTypes
	}
	per, err := readPerPrediction(b.FilesPerPrediction, d.InputSchema)
	if err != nil {
		return err
	}
	inner := d.Runner
	er := &Runner{engine: e, bind: b, plan: inner.Plan, per: per, inType: reflect.TypeFor[map[string]any](),
		allowed: types, refs: refFields(d)}
	if tr, ok := inner.(tasks.TypedRunner); ok {
		er.inType, er.decode = tr.InputType(), tr.DecodeInput
	}
	run, err := share(d, b, er, inner)
	if err != nil {
		return err
	}
	if err := check(d, b, er.meta); err != nil {
		return err
	}
	_, own := run.(tasks.Admitter)
	if a, ok := inner.(tasks.Admitter); ok && !own {
		d.Runner = admitting{routed: run, admitter: a}
	} else {
		d.Runner = run
	}
	d.Docs.Errors = tasks.ErrorList(slices.Concat(d.Docs.Errors, er.EngineErrors())...)
	if b.FilesPerPrediction != nil {
		d.Docs.Outputs.Count += " × " + per.docs() + " (each prediction answers that many files, each an output)"
		if per.field != "" && !slices.Contains(d.Docs.Outputs.CountDependsOn, per.field) {
			d.Docs.Outputs.CountDependsOn = append(slices.Clone(d.Docs.Outputs.CountDependsOn), per.field)
		}
	}
	return nil
}

// addDeclared builds a declared task, checks it and adds it as a family
// of its own.
func addDeclared(r *tasks.Registry, tc TaskConfig, built map[string]model) error {
	e, err := binding(tc.Binding, built)
	if err != nil {
		return err
	}
	if len(tc.Input) == 0 {
		return fmt.Errorf("input maps nothing to engine %s", tc.Engine)
	}
	if tc.Fallback != nil || tc.When != "" {
		return errors.New("fallback and when are a route's: a declared task runs on its engine only")
	}
	d, err := declare(tc, e)
	if err != nil {
		return err
	}
	if err := check(d, tc.Binding, d.Runner.(*Runner).meta); err != nil {
		return err
	}
	return r.Add(tasks.Family{Name: "engines:" + tc.Name, Tasks: []*tasks.Definition{d}})
}

// meta is output i's data for input, of an output whose facts are output
// (its pixel size); checkedOutput stands in for them at start-up.
func (r *Runner) meta(input map[string]any, i int, output map[string]any) map[string]any {
	if len(r.bind.Meta) == 0 {
		return DefaultMeta(r.engine.Name(), i)
	}
	return r.bind.Meta.apply(scope{input: input, i: i, output: output})
}

// checkedOutput are the facts of an output the start-up check maps meta with.
var checkedOutput = map[string]any{"width": 1, "height": 1, "format": "png", "source_width": 1, "source_height": 1,
	"file": 0, "scale": 2}

// admitting is the Runner of a routed task whose built-in Runner checks
// the account's records at submit: the check stays.
type admitting struct {
	routed
	admitter tasks.Admitter
}

var _ tasks.Admitter = admitting{}

// Admit implements tasks.Admitter with the built-in task's check.
func (a admitting) Admit(ctx context.Context, env tasks.Env, input tasks.Input) error {
	return a.admitter.Admit(ctx, env, input)
}

// AdmitErrors implements tasks.Admitter.
func (a admitting) AdmitErrors() []apierr.Code { return a.admitter.AdmitErrors() }
