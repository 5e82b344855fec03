package pbvi_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/internal/benchtest"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pbvi"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// lookup returns the model of the benchmark name (benchtest.Lookup).
func lookup(t testing.TB, name string) *pomdp.Model { return benchtest.Lookup(t, name).Model }

func obsReward(t testing.TB, name string) *pomdp.Model {
	t.Helper()
	m, err := value.WithObsReward(lookup(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// With every reachable decision belief among the points, PBVI is exact:
// its value equals the exhaustive belief-tree optimum.
func TestSolveExactWithAllPoints(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		m    *pomdp.Model
		T    int
		want float64 // NaN: use Optimal as the oracle
		src  string
	}{
		{"tiger T=1", lookup(t, "tiger"), 1, -1, "hand: listen costs 1, opening −45 in expectation"},
		{"tiger T=2", lookup(t, "tiger"), 2, -2, "hand: one listen never justifies opening (−6.5 < −1)"},
		{"tiger T=3", lookup(t, "tiger"), 3, 2.72, "hand: −2 + 0.745·(9.698 − 3.02) − 0.255 after two listens"},
		{"tiger T=4", lookup(t, "tiger"), 4, math.NaN(), "Optimal"},
		{"goal grid 3x3 T=3", lookup(t, "gridworld-goal:3"), 3, math.NaN(), "Optimal"},
		{"rocksample T=3", lookup(t, "rocksample:4:4"), 3, 5, "hand: move east onto rock 0, check it there (efficiency 1), sample it if good: ½·10"},
		{"random 6 obs reward T=3", obsReward(t, "random:6:3:3:1"), 3, math.NaN(), "Optimal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt, err := pbvi.Optimal(ctx, tc.m, tc.T, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if math.IsNaN(want) {
				want = opt.Value
			} else if !(math.Abs(opt.Value-want) <= 1e-9) {
				t.Fatalf("Optimal = %v, want %v (%s)", opt.Value, want, tc.src)
			}
			r, err := pbvi.Solve(ctx, tc.m, pbvi.Settings{Horizon: tc.T, Points: 5000, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exhausted {
				t.Fatalf("only %d points: the reachable set was not exhausted", len(r.Beliefs))
			}
			if !(math.Abs(r.Value-want) <= 1e-9) {
				t.Errorf("PBVI value %v, want %v (%s)", r.Value, want, tc.src)
			}
			ev, err := r.Evaluate(ctx, tc.m, tc.m, tc.T, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(ev-want) <= 1e-9) {
				t.Errorf("executed policy value %v, want %v", ev, want)
			}
		})
	}
}

// With few points PBVI is a lower bound, and so is its executed policy.
func TestLowerBound(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"gridworld-goal:3", "rocksample:4:4"} {
		m := lookup(t, name)
		for _, T := range []int{2, 3, 4} {
			if name == "rocksample:4:4" && T == 4 && testing.Short() {
				continue
			}
			opt, err := pbvi.Optimal(ctx, m, T, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, points := range []int{1, 3, 10} {
				for _, how := range []pbvi.Expansion{pbvi.RandomWalk, pbvi.SSEA} {
					r, err := pbvi.Solve(ctx, m, pbvi.Settings{Horizon: T, Points: points, Expansion: how, Seed: 7})
					if err != nil {
						t.Fatal(err)
					}
					ev, err := r.Evaluate(ctx, m, m, T, 0)
					if err != nil {
						t.Fatal(err)
					}
					if !(r.Value <= opt.Value+1e-9) || !(ev <= opt.Value+1e-9) {
						t.Errorf("%s T=%d points=%d %v: PBVI %v, executed %v above the optimum %v", name, T, points, how, r.Value, ev, opt.Value)
					}
					if len(r.Beliefs) > points {
						t.Errorf("%d beliefs for %d points", len(r.Beliefs), points)
					}
				}
			}
		}
	}
}

// Tiger with γ = 0.95 (Cassandra's tiger.95.POMDP): the optimal value at
// the uniform belief is 19.37 (pomdp-solve's exact solution, also the
// value quoted in notebooks/README.md).
func TestTigerDiscounted(t *testing.T) {
	m := lookup(t, "tiger")
	for _, how := range []pbvi.Expansion{pbvi.RandomWalk, pbvi.SSEA} {
		r, err := pbvi.Solve(context.Background(), m, pbvi.Settings{Discount: 0.95, Points: 100, Expansion: how, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != pbvi.Converged {
			t.Errorf("%v: status %v after %d sweeps (residual %g)", how, r.Status, r.Iterations, r.Residual)
		}
		if !(math.Abs(r.Value-19.3713) <= 0.01) {
			t.Errorf("%v: V(b0) = %v, want 19.37", how, r.Value)
		}
		if a := r.Action(0, m.B0); a != 0 {
			t.Errorf("%v: action at b0 %d, want listen", how, a)
		}
	}
}

// policyFSC writes a finite-horizon PBVI policy computed on plan as a
// clock-aware FSC whose node at stage τ is the index of the history
// observed so far, so that package value evaluates it independently.
func policyFSC(r *pbvi.Result, plan *pomdp.Model, T int) *fsc.FSC {
	nA, nO := plan.NumActions(), plan.NumObservations()
	nodes := 1
	for t := 1; t < T; t++ {
		nodes *= nO
	}
	c := &fsc.FSC{Nodes: nodes, Stages: T, NumActions: nA, NumObs: nO,
		Act: make([][]int, T), Next: make([][][]int, T)}
	beliefs := [][]float64{plan.B0}
	for tau := 0; tau < T; tau++ {
		c.Act[tau] = make([]int, nodes)
		c.Next[tau] = make([][]int, nodes)
		var next [][]float64
		for i := range nodes {
			c.Next[tau][i] = make([]int, nO)
			if i >= len(beliefs) {
				continue
			}
			a := r.Action(T-tau, beliefs[i])
			c.Act[tau][i] = a
			for o := 0; o < nO; o++ {
				if tau < T-1 {
					c.Next[tau][i][o] = i*nO + o
				}
				post, p := plan.Update(beliefs[i], a, o)
				if p == 0 {
					pred := make([]float64, plan.NumStates())
					plan.Predict(pred, beliefs[i], a)
					post = pred
				}
				next = append(next, post)
			}
		}
		beliefs = next
	}
	return c
}

// Evaluate agrees with package value on the same policy written as an
// FSC, also when the policy acts on another model.
func TestEvaluateAgreesWithValue(t *testing.T) {
	ctx := context.Background()
	tests := []struct{ plan, run string }{
		{"tiger", "tiger"},
		{"tiger", "tiger:0.7"},
		{"tiger:0.7:0.3", "tiger"},
		{"gridworld-goal:3", "gridworld-goal:3"},
		{"rocksample:4:4", "rocksample:4:4"},
	}
	for _, tc := range tests {
		plan, run := lookup(t, tc.plan), lookup(t, tc.run)
		for _, T := range []int{1, 2, 3} {
			r, err := pbvi.Solve(ctx, plan, pbvi.Settings{Horizon: T, Points: 20, Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Evaluate(ctx, plan, run, T, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.Evaluate(run, policyFSC(r, plan, T), T, value.LatentReward{})
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(got-want) <= 1e-9) {
				t.Errorf("%s on %s, T=%d: Evaluate %v, value.Evaluate %v", tc.plan, tc.run, T, got, want)
			}
		}
	}
}

func TestSettingsErrors(t *testing.T) {
	m := lookup(t, "tiger")
	for _, s := range []pbvi.Settings{
		{Horizon: -1},
		{Horizon: 2, Discount: 1.5},
		{Horizon: 2, Discount: -0.1},
		{Discount: 1},
		{Horizon: 2, Points: -1},
		{Horizon: 2, Points: pbvi.MaxPoints + 1},
	} {
		if _, err := pbvi.Solve(context.Background(), m, s); !errors.Is(err, pbvi.ErrSettings) {
			t.Errorf("%+v: err = %v, want ErrSettings", s, err)
		}
	}
	if _, err := pbvi.Solve(context.Background(), nil, pbvi.Settings{Horizon: 1}); !errors.Is(err, pbvi.ErrSettings) {
		t.Errorf("nil model: err = %v", err)
	}
}

func TestLimitsAndCancel(t *testing.T) {
	ctx := context.Background()
	m := lookup(t, "tiger")
	if _, err := pbvi.Optimal(ctx, m, 6, 1, 100); !errors.Is(err, pbvi.ErrTooLarge) {
		t.Errorf("Optimal above its limit: err = %v", err)
	}
	r, err := pbvi.Solve(ctx, m, pbvi.Settings{Horizon: 6})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Evaluate(ctx, m, m, 6, 4); !errors.Is(err, pbvi.ErrTooLarge) {
		t.Errorf("Evaluate above its limit: err = %v", err)
	}
	if _, err := r.Evaluate(ctx, m, m, 7, 0); err == nil {
		t.Error("Evaluate beyond the horizon: no error")
	}
	if _, err := r.Evaluate(ctx, m, lookup(t, "gridworld:3"), 2, 0); err == nil {
		t.Error("Evaluate on a model with other actions: no error")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := pbvi.Solve(cancelled, m, pbvi.Settings{Horizon: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Solve: err = %v", err)
	}
	calls := 0
	if _, err := pbvi.Solve(ctx, m, pbvi.Settings{Horizon: 4, Progress: func(done, total int) {
		calls++
		if done != calls || total != 4 {
			t.Errorf("progress (%d, %d) at call %d", done, total, calls)
		}
	}}); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("%d progress calls, want 4", calls)
	}
}

// The same seed gives the same points and value; the expansion is the
// only random part.
func TestSeedReproducible(t *testing.T) {
	m := lookup(t, "gridworld-goal:5")
	for _, how := range []pbvi.Expansion{pbvi.RandomWalk, pbvi.SSEA} {
		a, err := pbvi.Solve(context.Background(), m, pbvi.Settings{Horizon: 3, Expansion: how, Seed: pbvi.DefaultSeed})
		if err != nil {
			t.Fatal(err)
		}
		b, err := pbvi.Solve(context.Background(), m, pbvi.Settings{Horizon: 3, Expansion: how, Seed: pbvi.DefaultSeed})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Beliefs) != len(b.Beliefs) || a.Value != b.Value {
			t.Fatalf("%v: two runs with one seed differ: %d vs %d points, %v vs %v", how, len(a.Beliefs), len(b.Beliefs), a.Value, b.Value)
		}
		for i := range a.Beliefs {
			for s := range a.Beliefs[i] {
				if a.Beliefs[i][s] != b.Beliefs[i][s] {
					t.Fatalf("%v: point %d differs", how, i)
				}
			}
		}
		if len(a.Beliefs) != pbvi.DefaultPoints {
			t.Errorf("%v: %d points, want %d", how, len(a.Beliefs), pbvi.DefaultPoints)
		}
	}
}

func BenchmarkSolve(b *testing.B) {
	for _, name := range []string{"tiger", "gridworld-goal:5", "rocksample:4:4"} {
		m := lookup(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var r *pbvi.Result
			for b.Loop() {
				var err error
				r, err = pbvi.Solve(context.Background(), m, pbvi.Settings{Horizon: 3, Seed: pbvi.DefaultSeed})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Backups), "backups/op")
			b.ReportMetric(float64(r.Vectors(3)), "alphas")
		})
	}
}
