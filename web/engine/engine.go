// Package engine is what the web page runs in its Web Worker, compiled to
// WebAssembly (web/wasm): it answers the page's requests — list the
// built-in models, estimate a run before it starts (report.Preflight, the
// pre-flight of pomdpq analyze), run it (report.Build, rendered by
// report.WriteFragment, the renderer of pomdpq analyze), redraw the
// quotient at another ε (report.SetEps) — as JSON values. It opens no
// file and makes no request: a model is a built-in (package bench) or the
// bytes of a file the user chose (modelfile.Read). It builds and is tested on
// any platform; only web/wasm needs GOOS=js.
package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/report"
)

// Limits of the page. A browser gives a page one thread for this work
// (the Web Worker) and a WebAssembly memory of at most 4 GiB (32-bit
// addresses); the Go runtime, the model and the page's strings need some
// of it.
const (
	// MaxMemory is the most memory a run may be estimated to need.
	MaxMemory = 3 << 30
	// DefaultSeconds is the time budget when the page chooses T.
	DefaultSeconds = 60
	// MaxFileBytes bounds a model file read by the page.
	MaxFileBytes = 64 << 20
)

// Request is one message of the page to the engine.
type Request struct {
	// Op is "models", "estimate", "run" or "eps".
	Op string `json:"op"`
	// Model is a built-in name (bench.Lookup); File and Data a model file's
	// name and content instead.
	Model string `json:"model,omitempty"`
	File  string `json:"file,omitempty"`
	Data  string `json:"data,omitempty"`
	// Family is "stationary" (default) or "clock"; M the memory bounds
	// (default 1); T the horizon (0: chosen within the budget); Eps the
	// ε values whose counts are given (default 0).
	Family string    `json:"family,omitempty"`
	M      []int     `json:"m,omitempty"`
	T      int       `json:"T,omitempty"`
	Eps    []float64 `json:"eps,omitempty"`
	// Mem is the memory budget in bytes (0: MaxMemory; at most MaxMemory);
	// Seconds the time budget of a chosen T (0: DefaultSeconds).
	Mem     int64   `json:"mem,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	// At is the ε of an "eps" request.
	At float64 `json:"at,omitempty"`
	// TReason, on a "run" whose T an "estimate" chose, is that estimate's
	// sentence saying why, shown in the report instead of "T given".
	TReason string `json:"t_reason,omitempty"`
}

// Response is the engine's answer. Error, when set, is the whole answer:
// a parser's error names the file and the line.
type Response struct {
	Error string `json:"error,omitempty"`
	// Models lists the built-ins ("models").
	Models []Model `json:"models,omitempty"`
	// Estimates are the pre-flight of every family ("estimate", "run");
	// Fits is false when one does not fit, and Refusal says why.
	Estimates []Estimate `json:"estimates,omitempty"`
	Fits      bool       `json:"fits"`
	Refusal   string     `json:"refusal,omitempty"`
	Budget    string     `json:"budget,omitempty"`
	// T is the horizon used, TReason how it was chosen.
	T       int    `json:"T,omitempty"`
	TReason string `json:"t_reason,omitempty"`
	// Counts are the class counts at the requested ε; Eps the ε values of
	// the slider (the requested ones, then the report's grid).
	Counts  []Count   `json:"counts,omitempty"`
	Eps     []float64 `json:"eps,omitempty"`
	Name    string    `json:"name,omitempty"`
	Report  string    `json:"report,omitempty"` // report.WriteFragment
	Page    string    `json:"page,omitempty"`   // report.WriteHTML, to download
	Files   []File    `json:"files,omitempty"`
	Quot    string    `json:"quotient,omitempty"` // report.QuotientHTML ("eps")
	FilesH  string    `json:"files_html,omitempty"`
	At      float64   `json:"at"`
	Classes int       `json:"classes,omitempty"` // of the quotient drawn
	Seconds float64   `json:"seconds,omitempty"`
}

// Model is a built-in model of the picker.
type Model struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// Estimate is one family's pre-flight.
type Estimate struct {
	M       int     `json:"m"`
	T       int     `json:"T"`
	Summary string  `json:"summary"`
	Fits    bool    `json:"fits"`
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// Count is the class count of every family at one ε (-1: refused).
type Count struct {
	Eps     float64 `json:"eps"`
	Classes []int   `json:"classes"`
}

// File is an exported file to download.
type File struct {
	Name string `json:"name"`
	What string `json:"what"`
	Data string `json:"data"`
}

// Progress receives the run's phases and their progress.
type Progress func(phase string, done, total int)

// Engine holds the last report, which "eps" requests draw again, and the
// last pre-flight, which a "run" with the same settings reuses (the page
// sends an "estimate" and then a "run" at the horizon it chose).
type Engine struct {
	r    *report.Report
	base string
	last *estimated
}

// estimated is a pre-flight's answer and the settings it was made for.
type estimated struct {
	key  string
	resp Response
}

// preflightFunc runs one family's pre-flight at one horizon
// (report.Preflight; a test counts the calls through it).
var preflightFunc report.PreflightFunc = report.Preflight

// preflightKey says what a pre-flight depends on: the model (file name
// and a digest of its text, or the built-in's name), the family, the
// memory bounds and the budget; the horizon is compared apart.
func preflightKey(req Request, s *settings) string {
	sum := sha256.Sum256([]byte(req.Data))
	return fmt.Sprintf("%q %x %q %s %v %+v", req.File, sum, req.Model, s.kind, s.ms, s.budget)
}

// Handle answers one request. It never panics on bad input: every
// failure is a Response with Error set.
func (e *Engine) Handle(ctx context.Context, req Request, progress Progress) (resp Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = Response{Error: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	if progress == nil {
		progress = func(string, int, int) {}
	}
	var err error
	switch req.Op {
	case "models":
		resp = Response{Models: Models()}
	case "estimate":
		resp, err = e.estimate(ctx, req)
	case "run":
		resp, err = e.run(ctx, req, progress)
	case "eps":
		resp, err = e.eps(ctx, req.At)
	default:
		err = fmt.Errorf("unknown request %q", req.Op)
	}
	if err != nil {
		return Response{Error: err.Error()}
	}
	return resp
}

// Models lists the built-in models (one example per registry pattern).
func Models() []Model {
	var out []Model
	for _, e := range bench.Names() {
		out = append(out, Model{Name: e.Example, Doc: e.Doc})
	}
	return out
}

// settings are a request's model and run settings, checked.
type settings struct {
	model  *pomdp.Model
	ground ot.Described
	source string
	kind   fsc.Kind
	ms     []int
	eps    []float64
	budget report.Budget
}

func load(req Request) (*settings, error) {
	s := &settings{}
	switch {
	case req.File != "":
		if len(req.Data) > MaxFileBytes {
			return nil, fmt.Errorf("%s: %s, more than the page reads (%s)", req.File, distance.FormatBytes(int64(len(req.Data))), distance.FormatBytes(MaxFileBytes))
		}
		m, err := modelfile.Read(strings.NewReader(req.Data), req.File)
		if err != nil {
			return nil, err
		}
		s.model, s.source = m, req.File
		if m.Ground != nil {
			s.ground = ot.Described{Ground: m.Ground.D, Name: m.Ground.Name, Source: "model file " + req.File}
		} else {
			s.ground = ot.DescribeDiscrete(m.NumObservations(), "default: the file "+req.File+" gives no ground metric")
		}
	case req.Model != "":
		b, err := bench.Lookup(req.Model)
		if err != nil {
			return nil, err
		}
		s.model, s.source, s.ground = b.Model, req.Model, b.Described()
	default:
		return nil, errors.New("choose a built-in model or a model file")
	}
	s.kind = fsc.KindStationary
	switch req.Family {
	case "", "stationary":
	case "clock":
		s.kind = fsc.KindClock
	default:
		return nil, fmt.Errorf("family %q: want stationary or clock", req.Family)
	}
	s.ms = req.M
	if len(s.ms) == 0 {
		s.ms = []int{1}
	}
	for _, k := range s.ms {
		if k < 1 {
			return nil, fmt.Errorf("m = %d: want a memory bound of 1 or more", k)
		}
	}
	if req.T < 0 {
		return nil, fmt.Errorf("T = %d: want a positive horizon (or none, to choose it)", req.T)
	}
	s.eps = req.Eps
	if len(s.eps) == 0 {
		s.eps = []float64{0}
	}
	for _, v := range s.eps {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("ε = %g: want a non-negative number", v)
		}
	}
	s.budget = report.Budget{Bytes: req.Mem, Seconds: req.Seconds}
	if runtime.GOOS == "js" {
		s.budget.Slowdown = report.WasmSlowdown
	}
	if s.budget.Bytes <= 0 || s.budget.Bytes > MaxMemory {
		s.budget.Bytes = MaxMemory
	}
	if s.budget.Seconds <= 0 {
		s.budget.Seconds = DefaultSeconds
	}
	return s, nil
}

// estimate runs the pre-flight: the horizon (given, or chosen within the
// budget) and every family's estimate.
func (e *Engine) estimate(ctx context.Context, req Request) (Response, error) {
	s, err := load(req)
	if err != nil {
		return Response{}, err
	}
	return e.preflight(ctx, req, s)
}

// preflight returns the pre-flight of settings s: the last one when it was
// made for the same settings and its horizon is the one asked (or none
// was asked), else a new one (remembered for the next request).
func (e *Engine) preflight(ctx context.Context, req Request, s *settings) (Response, error) {
	key := preflightKey(req, s)
	if l := e.last; l != nil && l.key == key && (req.T <= 0 || req.T == l.resp.T) {
		return l.resp, nil
	}
	resp, err := preflight(ctx, s, req.T)
	if err == nil {
		e.last = &estimated{key: key, resp: resp}
	}
	return resp, err
}

// preflight chooses the horizon (when T ≤ 0) and estimates every family
// at it, each (family, horizon) once: the estimates the choice made are
// reused.
func preflight(ctx context.Context, s *settings, T int) (Response, error) {
	resp := Response{Fits: true, Budget: fmt.Sprintf("%s of one thread and %s of the page's WebAssembly memory (at most 4 GiB in a browser)",
		fmt.Sprintf("%g s", s.budget.Seconds), distance.FormatBytes(s.budget.Bytes)), Name: s.model.Name}
	var done map[int]report.Estimate
	if T <= 0 {
		c, err := report.Choose(ctx, s.model, s.kind, s.ms, s.budget, preflightFunc)
		if err != nil {
			if ctx.Err() != nil {
				return Response{}, err
			}
			resp.Fits, resp.Refusal = false, err.Error()
			return resp, nil
		}
		T, resp.TReason, done = c.T, c.Why, c.Estimates
	} else {
		resp.TReason = fmt.Sprintf("T = %d given", T)
	}
	resp.T = T
	for _, k := range s.ms {
		est, ok := done[k]
		if !ok {
			var err error
			if est, err = preflightFunc(ctx, s.model, s.kind, k, T, s.budget); err != nil {
				return Response{}, err
			}
		}
		resp.Estimates = append(resp.Estimates, Estimate{M: k, T: T, Summary: est.Summary(), Fits: est.Fits(), Bytes: est.Bytes, Seconds: est.Seconds})
		if !est.Fits() {
			resp.Fits = false
			if resp.Refusal == "" {
				resp.Refusal = fmt.Sprintf("not run: %s m ≤ %d at T = %d would need %s", s.kind, k, T, est.Refused)
			}
		}
	}
	return resp, nil
}

// run estimates, refuses past the budget, and otherwise builds the report.
func (e *Engine) run(ctx context.Context, req Request, progress Progress) (Response, error) {
	s, err := load(req)
	if err != nil {
		return Response{}, err
	}
	progress("pre-flight", 0, 1)
	resp, err := e.preflight(ctx, req, s)
	if err != nil || !resp.Fits {
		return resp, err
	}
	start := time.Now()
	phase := ""
	opt := report.Options{T: resp.T, Kind: s.kind, Ms: s.ms, Eps: s.eps[0], EpsList: s.eps, MemBudget: s.budget.Bytes,
		Seconds: s.budget.Seconds, Ground: s.ground.Ground, GroundName: s.ground.Name, GroundSource: s.ground.Source,
		By: "the pomdpq web page (WebAssembly, one thread)",
		Phase: func(p string) {
			phase = p
			progress(p, 0, 0)
		},
		Progress: func(done, total int) { progress(phase, done, total) }}
	r, err := report.Build(ctx, s.model, s.source, opt)
	if err != nil {
		return Response{}, err
	}
	r.TReason = resp.TReason
	if req.TReason != "" {
		r.TReason, resp.TReason = req.TReason, req.TReason
	}
	e.r, e.base = r, strings.TrimSuffix(s.model.Name, ".")
	resp.Seconds = time.Since(start).Seconds()
	for _, q := range r.Requested {
		resp.Counts = append(resp.Counts, Count{Eps: q.Eps, Classes: q.Classes})
	}
	resp.Eps = sliderEps(s.eps, r.Grid)
	if err := e.render(&resp); err != nil {
		return Response{}, err
	}
	return resp, nil
}

// sliderEps is the requested ε values followed by the grid's, sorted,
// without repeats.
func sliderEps(req, grid []float64) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, v := range append(append([]float64(nil), req...), grid...) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// render fills the report's HTML, the page to download and the files.
func (e *Engine) render(resp *Response) error {
	r := e.r
	files := r.Files(e.base)
	var frag, page bytes.Buffer
	if err := r.WriteFragment(&frag, files); err != nil {
		return err
	}
	if err := r.WriteHTML(&page, files); err != nil {
		return err
	}
	resp.Report, resp.Page = frag.String(), page.String()
	resp.Files = nil
	for _, f := range files {
		if f.Err == "" {
			resp.Files = append(resp.Files, File{Name: f.Name, What: f.What, Data: string(f.Data)})
		}
	}
	q, err := r.QuotientHTML()
	if err != nil {
		return err
	}
	resp.Quot, resp.FilesH, resp.At = q, r.FilesHTML(files), r.DiagramEps
	if r.Quotient != nil {
		resp.Classes = r.Quotient.Classes()
	}
	return nil
}

// eps draws the last report's quotient at ε = at again.
func (e *Engine) eps(ctx context.Context, at float64) (Response, error) {
	if e.r == nil {
		return Response{}, errors.New("no analysis yet: run one first")
	}
	if err := e.r.SetEps(ctx, at); err != nil {
		return Response{}, err
	}
	resp := Response{Fits: true, T: e.r.T}
	if err := e.render(&resp); err != nil {
		return Response{}, err
	}
	return resp, nil
}
