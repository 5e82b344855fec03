package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/report"
)

func mazeFile(t *testing.T) (string, string) {
	t.Helper()
	path := filepath.Join("..", "..", "datasets", "models", "maze4x3.pomdp")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(data)
}

// TestRunCounts: the page's run of maze4x3.pomdp (m = 1, T = 3, ε = 0,
// 0.1, 0.3) counts the classes distance.Compute gives on the file read by
// modelfile.Load, as pomdpq quotient does; the report, the page to
// download and both quotient files come with it.
func TestRunCounts(t *testing.T) {
	path, data := mazeFile(t)
	eps := []float64{0, 0.1, 0.3}
	m, err := modelfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	fam, _ := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, 3, fsc.Options{})
	res, err := distance.Compute(context.Background(), m, fam, 3, distance.Options{Eps: eps})
	if err != nil {
		t.Fatal(err)
	}
	var e Engine
	var phases []string
	resp := e.Handle(context.Background(), Request{Op: "run", File: "maze4x3.pomdp", Data: data, M: []int{1}, T: 3, Eps: eps},
		func(p string, _, _ int) {
			if len(phases) == 0 || phases[len(phases)-1] != p {
				phases = append(phases, p)
			}
		})
	if resp.Error != "" || !resp.Fits {
		t.Fatalf("run: %+v", resp.Error)
	}
	for i, c := range resp.Counts {
		if want := res.Partition(eps[i]).Total(); c.Eps != eps[i] || len(c.Classes) != 1 || c.Classes[0] != want {
			t.Errorf("ε = %g: the page counts %v, distance.Compute %d", eps[i], c.Classes, want)
		}
	}
	if len(resp.Counts) != len(eps) || !strings.Contains(resp.Report, `class="pomdpq-report"`) || !strings.Contains(resp.Page, "<!DOCTYPE html>") ||
		len(resp.Files) != 2 || !strings.Contains(resp.Report, "<svg") || len(phases) < 3 {
		t.Errorf("run: %d counts, %d files, phases %v", len(resp.Counts), len(resp.Files), phases)
	}
	// The exported files read back as models.
	for _, f := range resp.Files {
		if _, err := modelfile.Read(strings.NewReader(f.Data), f.Name); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
	// The slider: another ε redraws the quotient with its class count (of
	// a run with every distance solved).
	exact, err := distance.Compute(context.Background(), m, fam, 3, distance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := resp.Eps[len(resp.Eps)-1]
	r2 := e.Handle(context.Background(), Request{Op: "eps", At: at}, nil)
	if r2.Error != "" || r2.At != at || r2.Classes != exact.Partition(at).Total() || r2.Quot == resp.Quot {
		t.Errorf("eps %g: classes %d (want %d), error %q, quotient redrawn %v", at, r2.Classes, exact.Partition(at).Total(), r2.Error, r2.Quot != resp.Quot)
	}
}

// TestErrors: a malformed file names the file and the line; a request past
// the budget is refused with its estimate; bad settings say which.
func TestErrors(t *testing.T) {
	var e Engine
	bad := "discount: 0.95\nvalues: reward\nstates: 2\nactions: 1\nobservations: 1\nT: 0 : 0 : 0 zero\n"
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Op: "run", File: "bad.pomdp", Data: bad}, "bad.pomdp:6"},
		{Request{Op: "run", Model: "no-such-model"}, "no-such-model"},
		{Request{Op: "run", Model: "maze4x3", M: []int{0}}, "m = 0"},
		{Request{Op: "run", Model: "maze4x3", Family: "other"}, `family "other"`},
		{Request{Op: "run", Model: "maze4x3", Eps: []float64{-1}}, "ε = -1"},
		{Request{Op: "eps", At: 0.1}, "no analysis yet"},
		{Request{Op: "nonsense"}, "unknown request"},
	} {
		resp := e.Handle(context.Background(), c.req, nil)
		if !strings.Contains(resp.Error, c.want) {
			t.Errorf("%+v: error %q, want one naming %q", c.req.Op, resp.Error, c.want)
		}
	}
	// Over the budget: 6^9 histories of maze4x3 at T = 9 take far more
	// than a second; a 1 MiB budget is below any run's memory.
	for _, req := range []Request{
		{Op: "run", Model: "maze4x3", T: 9, Seconds: 1},
		{Op: "estimate", Model: "maze4x3", T: 3, Mem: 1 << 20},
	} {
		resp := e.Handle(context.Background(), req, nil)
		if resp.Error != "" || resp.Fits || !strings.Contains(resp.Refusal, "would need") || len(resp.Estimates) != 1 || resp.Estimates[0].Fits || resp.Report != "" {
			t.Errorf("%+v: %+v, want a refusal with the estimate and no report", req, resp)
		}
	}
}

// TestModels: the picker lists the built-ins, maze4x3 among them.
func TestModels(t *testing.T) {
	var e Engine
	resp := e.Handle(context.Background(), Request{Op: "models"}, nil)
	if !slices.ContainsFunc(resp.Models, func(m Model) bool { return m.Name == "maze4x3" }) {
		t.Errorf("models %v", resp.Models)
	}
}

// TestChosenT: without T the estimate chooses it within the time budget
// and says why; the run at that T carries the sentence into the report.
func TestChosenT(t *testing.T) {
	var e Engine
	est := e.Handle(context.Background(), Request{Op: "estimate", Model: "tiger", M: []int{2}, Seconds: 1}, nil)
	if est.Error != "" || !est.Fits || est.T < 1 || !strings.Contains(est.TReason, "is the largest horizon the budget") {
		t.Fatalf("estimate: %+v", est)
	}
	run := e.Handle(context.Background(), Request{Op: "run", Model: "tiger", M: []int{2}, T: est.T, TReason: est.TReason}, nil)
	if run.Error != "" || !strings.Contains(run.Report, "is the largest horizon the budget") {
		t.Errorf("run at the chosen T = %d: error %q; the report does not say why T was chosen", est.T, run.Error)
	}
}

// TestPreflightOnce runs the page's sequence (index.html's run(): an
// "estimate" without a horizon, then a "run" at the horizon it chose, with
// its sentence) on maze4x3.pomdp and counts the pre-flights through
// preflightFunc: each (family, horizon) is estimated once. At f76fb23 the
// chosen horizon's family was estimated three times (in ChooseT, again
// per family, and again by the "run").
func TestPreflightOnce(t *testing.T) {
	_, data := mazeFile(t)
	type at struct{ m, T int }
	calls := map[at]int{}
	saved := preflightFunc
	defer func() { preflightFunc = saved }()
	preflightFunc = func(ctx context.Context, m *pomdp.Model, kind fsc.Kind, mm, T int, b report.Budget) (report.Estimate, error) {
		calls[at{mm, T}]++
		return report.Preflight(ctx, m, kind, mm, T, b)
	}
	for _, tc := range []struct {
		name string
		ms   []int
	}{
		{"m ≤ 1", []int{1}},
		{"m ≤ 1 and 2 (the larger refused)", []int{1, 2}},
	} {
		clear(calls)
		var e Engine
		req := Request{Op: "estimate", File: "maze4x3.pomdp", Data: data, M: tc.ms, Eps: []float64{0, 0.3}, Seconds: 2}
		est := e.Handle(context.Background(), req, nil)
		if est.Error != "" || est.T < 1 {
			t.Fatalf("%s: estimate: %+v", tc.name, est)
		}
		req.Op, req.T, req.TReason = "run", est.T, est.TReason
		if resp := e.Handle(context.Background(), req, nil); resp.Error != "" || resp.T != est.T {
			t.Fatalf("%s: run: %v (T = %d, estimated %d)", tc.name, resp.Error, resp.T, est.T)
		}
		for _, k := range tc.ms {
			if calls[at{k, est.T}] == 0 {
				t.Errorf("%s: m ≤ %d never estimated at the chosen T = %d: %v", tc.name, k, est.T, calls)
			}
		}
		for k, n := range calls {
			if n != 1 {
				t.Errorf("%s: m ≤ %d, T = %d estimated %d times, want once", tc.name, k.m, k.T, n)
			}
		}
		// A run with other settings estimates anew.
		req.Seconds = 3
		before := len(calls) + calls[at{tc.ms[0], est.T}]
		e.Handle(context.Background(), req, nil)
		if after := len(calls) + calls[at{tc.ms[0], est.T}]; after == before {
			t.Errorf("%s: a run with another budget reused the last pre-flight", tc.name)
		}
	}
}
