package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/sample"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

// Helpers of the scale tables (paper §7.5, App. H; one file per table:
// medium_scale.go, m2_scaling.go, …). They rerun the paper's sampling
// protocol with package sample — 500 trajectories per (history, probe),
// 1,000 bootstrap resamples, seeds 0 … 9 for stability — and set every
// sampled number beside its exact value. Their agreement is statistical
// (docs/agreement.md#statistical): a row agrees when each printed class
// count is one that our ten seeds produce and the printed 95% interval
// overlaps ours. The judgement is made by PatternOK with a typed outcome
// (verdict.ByStatistics).

// The scale tables (paper §7.5, App. H) rerun the paper's sampling protocol
// with package sample — 500 trajectories per (history, probe), 1,000
// bootstrap resamples, seeds 0 … 9 for stability — and set every sampled
// number beside its exact value. Their agreement is statistical
// (docs/agreement.md#statistical): a row agrees when each printed class count is one that
// our ten seeds produce and the printed 95% interval overlaps ours. The
// judgement is made by PatternOK (Compare has no statistical kind), so such
// rows show as "pattern" with a note starting "statistical:".

const (
	scaleSeeds = 10   // seeds per stability range (tab:sampling-variance)
	scaleN     = 500  // trajectories per (history, probe)
	scaleB     = 1000 // bootstrap resamples
	scaleSeed  = 0    // the seed of the run whose numbers a row shows
)

// sampledCase is one sampled setting: the seed-0 run with its bootstrap
// interval, the class counts of seeds 0 … 9, and the exact counterpart.
type sampledCase struct {
	b        bench.Benchmark
	fam      fsc.Family
	run      *sample.Result
	iv       sample.Interval
	eps      []float64
	counts   []int // seed 0
	lo, hi   []int // over the seeds
	exact    []partition.Matrix
	exactCnt []int
	exactMax float64
	seconds  float64 // plan + seed-0 run
	seeds    int     // seeds behind lo and hi
}

// benchmark returns a built-in model, built once per Env (Random |S| =
// 2000 takes seconds to draw).
func benchmark(env *Env, model string) (bench.Benchmark, error) {
	return memo(env, "bench|"+model, func() (bench.Benchmark, error) { return bench.Lookup(model) })
}

// caseOpt selects what sampledCase computes beyond the seed-0 run.
type caseOpt struct {
	suffix int  // sample.Options.Suffix
	exact  bool // the exact distances
	noBoot bool // skip the bootstrap (iv is NaN)
	seeds  int  // seeds for the count ranges; 0 means scaleSeeds
}

// sampled runs (and caches) the protocol on a built-in model with the
// deterministic stationary family of memory m, with exact distances.
func sampled(ctx context.Context, env *Env, model string, m, T int, eps []float64) (*sampledCase, error) {
	return sampledWith(ctx, env, model, m, T, eps, caseOpt{exact: true})
}

// sampledWith is sampled with explicit options.
func sampledWith(ctx context.Context, env *Env, model string, m, T int, eps []float64, co caseOpt) (*sampledCase, error) {
	if co.seeds == 0 {
		co.seeds = scaleSeeds
	}
	key := fmt.Sprintf("sample|%s|%d|%d|%v|%+v", model, m, T, eps, co)
	return memo(env, key, func() (*sampledCase, error) {
		b, err := benchmark(env, model)
		if err != nil {
			return nil, err
		}
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
		if err != nil {
			return nil, err
		}
		opt := sample.Options{Ground: b.Ground, Suffix: co.suffix, Workers: env.workers()}
		start := time.Now()
		s, err := sample.New(ctx, b.Model, fam, T, opt)
		if err != nil {
			return nil, err
		}
		c := &sampledCase{b: b, fam: fam, eps: eps}
		stage := fmt.Sprintf("%s m=%d T=%d sampled", model, m, T)
		for seed := range co.seeds {
			r, err := s.Run(ctx, scaleN, uint64(seed))
			if err != nil {
				return nil, err
			}
			if seed == scaleSeed {
				c.run, c.seconds = r, time.Since(start).Seconds()
			}
			for k, e := range eps {
				n := r.Partition(e).Total()
				if seed == scaleSeed {
					c.counts = append(c.counts, n)
					c.lo, c.hi = append(c.lo, n), append(c.hi, n)
				}
				c.lo[k], c.hi[k] = min(c.lo[k], n), max(c.hi[k], n)
			}
			if p := env.progress(stage); p != nil {
				p(seed+1, co.seeds)
			}
		}
		c.iv = sample.Interval{Estimate: c.run.MaxDistance(), Low: math.NaN(), High: math.NaN()}
		if !co.noBoot {
			c.iv, err = c.run.Bootstrap(ctx, sample.BootstrapOptions{Resamples: scaleB, Workers: env.workers()})
			if err != nil {
				return nil, err
			}
		}
		c.seeds = co.seeds
		if co.exact {
			c.exact, err = sample.Exact(ctx, b.Model, fam, T, opt)
			if err != nil {
				return nil, err
			}
			for _, d := range c.exact {
				c.exactMax = math.Max(c.exactMax, d.Max())
			}
			for _, e := range eps {
				c.exactCnt = append(c.exactCnt, partition.Greedy(c.exact, e).Total())
			}
		}
		return c, nil
	})
}

// joinInts writes counts as "6/6/4/3".
func joinInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = itoa(v)
	}
	return strings.Join(s, "/")
}

// ranges writes per-ε ranges as "6/6/4–5/3".
func ranges(lo, hi []int) string {
	s := make([]string, len(lo))
	for i := range lo {
		s[i] = itoa(lo[i])
		if hi[i] != lo[i] {
			s[i] += "–" + itoa(hi[i])
		}
	}
	return strings.Join(s, "/")
}

// fnum is f3 with "–" for a value not computed (NaN).
func fnum(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return f3(x)
}

// f2 formats with two decimals (CI ends as the paper prints them have
// two; ours are shown with three).
func f2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// statJudge describes how a sampled row is judged against the paper.
type statJudge struct {
	exactCols []int  // columns that must agree exactly (sizes, family sizes)
	countCols []int  // class-count columns, with our seed ranges lo/hi
	lo, hi    []int  // per count column
	seeds     int    // seeds behind lo and hi
	ciCols    [2]int // the ci_low and ci_high columns (ciColumns), or −1: none
	iv        sample.Interval
	exactMax  float64 // NaN when not computed
	skip      string  // non-empty: the row is not reproduced, for this reason
}

// judge returns the statistical verdict on row i of t: each printed count
// must be one our seeds give and the printed interval must overlap ours.
// A row where no printed count or interval parses is not judged.
func (j statJudge) judge(t *Table, i int) verdict.Judgement {
	if j.skip != "" {
		return verdict.NotJudgedBecause("not reproduced here: " + j.skip)
	}
	row, pr := t.Rows[i], t.Printed[i]
	var bad, good, cols []string
	for _, c := range j.exactCols {
		if pr[c] != "" && !Agrees(row[c], pr[c]) {
			bad, cols = append(bad, fmt.Sprintf("%s: ours %s, paper %s", t.Columns[c].Name, row[c], pr[c])), append(cols, t.Columns[c].Name)
		}
	}
	inRange, judged := 0, 0
	for k, c := range j.countCols {
		p, err := strconv.Atoi(strings.TrimSpace(pr[c]))
		if err != nil {
			continue
		}
		judged++
		if p < j.lo[k] || p > j.hi[k] {
			r := itoa(j.lo[k])
			if j.hi[k] != j.lo[k] {
				r += "–" + itoa(j.hi[k])
			}
			bad, cols = append(bad, fmt.Sprintf("%s: paper %d, our %s", t.Columns[c].Name, p, seedsGive(j.seeds, r))), append(cols, t.Columns[c].Name)
			continue
		}
		inRange++
	}
	if inRange > 0 {
		good = append(good, fmt.Sprintf("%d printed counts among our %d seeds' counts", inRange, j.seeds))
	}
	if j.ciCols[0] >= 0 && pr[j.ciCols[0]] != "" && !math.IsNaN(j.iv.Low) {
		plo, _, err1 := verdict.Interval(pr[j.ciCols[0]])
		_, phi, err2 := verdict.Interval(pr[j.ciCols[1]])
		if err1 == nil && err2 == nil {
			judged++
			if j.iv.Low <= phi && plo <= j.iv.High {
				good = append(good, fmt.Sprintf("CIs overlap (paper [%s, %s], ours [%s, %s])", pr[j.ciCols[0]], pr[j.ciCols[1]], f3(j.iv.Low), f3(j.iv.High)))
			} else {
				bad = append(bad, fmt.Sprintf("CIs disjoint (paper [%s, %s], ours [%s, %s])", pr[j.ciCols[0]], pr[j.ciCols[1]], f3(j.iv.Low), f3(j.iv.High)))
				cols = append(cols, t.Columns[j.ciCols[0]].Name, t.Columns[j.ciCols[1]].Name)
			}
			if !math.IsNaN(j.exactMax) {
				in := func(lo, hi float64) string {
					if lo <= j.exactMax && j.exactMax <= hi {
						return "inside"
					}
					return "outside"
				}
				good = append(good, fmt.Sprintf("exact max W1 %s is %s ours and %s the paper's", f3(j.exactMax),
					in(j.iv.Low, j.iv.High), in(plo, phi)))
			}
		}
	}
	switch {
	case len(bad) > 0:
		return verdict.Differ("statistical: "+strings.Join(bad, "; "), cols...)
	case judged == 0:
		return verdict.NotJudgedBecause("no printed count or interval to judge")
	}
	return verdict.ByStatistics("statistical: " + strings.Join(good, "; "))
}

func seedsGive(n int, r string) string {
	if n == 1 {
		return fmt.Sprintf("seed %d gives %s", scaleSeed, r)
	}
	return fmt.Sprintf("%d seeds give %s", n, r)
}

// statTable makes every row of t judged by its statJudge.
func statTable(t *Table, judges map[int]statJudge) {
	t.PatternRow = func(int) bool { return true }
	t.PatternOK = func(i int) verdict.Judgement {
		j, ok := judges[i]
		if !ok {
			return verdict.NotJudgedBecause("no statistical judge for this row")
		}
		return j.judge(t, i)
	}
}

// ciColumns returns the columns ci_low and ci_high of t, by name.
func ciColumns(t *Table) [2]int {
	c := colIndex(t, "ci_low", "ci_high")
	return [2]int{c[0], c[1]}
}

func colIndex(t *Table, names ...string) []int {
	var out []int
	for _, n := range names {
		k := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == n })
		if k < 0 {
			panic("repro: no column " + n)
		}
		out = append(out, k)
	}
	return out
}

// randomIntervalNote says that row i's printed interval (of the paper's
// random draw) and ours (of our draw) are not judged.
func randomIntervalNote(t *Table, i int) string {
	return fmt.Sprintf("; the printed interval [%s, %s] is the paper's draw's and ours [%s, %s] our draw's: not judged",
		t.printedAt(i, "ci_low"), t.printedAt(i, "ci_high"), t.at(i, "ci_low"), t.at(i, "ci_high"))
}

// structuralCount returns the class count that |O| and T alone fix for a
// generic model: at ε = 0 every history before depth T apart and the
// depth-T histories (empty suffix) one class, 1 + |O| + … + |O|^(T−1) + 1;
// at ε > 0 one class per depth, T + 1, when every distance is below ε
// (as for our random draws, whose exact max W1 is below 0.01).
func structuralCount(nO, T int, eps float64) int {
	if eps > 0 {
		return T + 1
	}
	n, pow := 1, 1
	for range T - 1 {
		pow *= nO
		n += pow
	}
	return n + 1
}

// structuralCounts judges a random-model row (our own draw, not the
// paper's): ours must equal every printed count (cols, at the ε of eps).
// When each printed count is the one |O| and T fix, the row is
// structural, not agreement: any generic model of that size gives them.
func structuralCounts(t *Table, i int, cols []int, eps []float64, nO, T int) verdict.Judgement {
	var bad, diff, got, fixed []string
	structural, printed := true, 0
	for k, c := range cols {
		p := strings.TrimSpace(t.Printed[i][c])
		if p == "" {
			continue
		}
		printed++
		got = append(got, t.Rows[i][c])
		if !Agrees(t.Rows[i][c], p) {
			bad, diff = append(bad, fmt.Sprintf("%s: ours %s, paper %s", t.Columns[c].Name, t.Rows[i][c], p)), append(diff, t.Columns[c].Name)
		}
		n := structuralCount(nO, T, eps[k])
		fixed = append(fixed, itoa(n))
		structural = structural && Agrees(itoa(n), p)
	}
	switch {
	case printed == 0:
		return verdict.NotJudgedBecause("no printed count")
	case len(bad) > 0:
		return verdict.Differ("our own random draw differs: "+strings.Join(bad, "; "), diff...)
	case structural:
		return verdict.ByStructure(fmt.Sprintf("structural: the printed counts %s are the ones |O| = %d and T = %d fix for any generic model (at zero tolerance 1 + |O| + … + |O|^(T−1) + 1; at any ε > 0 one class per depth), and our own random draw gives them; not agreement with the paper's draw",
			strings.Join(fixed, "/"), nO, T))
	}
	return verdict.ByPattern("pattern: our own random draw gives every printed count (" + strings.Join(got, "/") + " over ε)")
}

// numObs returns the number of observations of a built-in model.
func numObs(env *Env, model string) (int, error) {
	b, err := benchmark(env, model)
	if err != nil {
		return 0, err
	}
	return b.Model.NumObservations(), nil
}

// nearestDistance returns the positive exact distance, over every pair of
// every depth, nearest to x (pairs at distance 0 have equal laws: sampling
// cannot separate them).
func nearestDistance(exact []partition.Matrix, x float64) float64 {
	best := math.Inf(1)
	for _, m := range exact {
		for _, d := range m.Data {
			if d > 0 && math.Abs(d-x) < math.Abs(best-x) {
				best = d
			}
		}
	}
	return best
}

// q is the type-7 quantile of sorted x.
func q(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}

// m1Sampler is the sampler and exact distances of a built-in model under
// the m = 1 stationary family at horizon T, shared by the tables that
// study sampling on one setting (cached in env).
type m1Sampler struct {
	s     *sample.Sampler
	exact []partition.Matrix
}

func newM1Sampler(ctx context.Context, env *Env, model string, T int) (*m1Sampler, error) {
	return memo(env, fmt.Sprintf("m1sampler|%s|%d", model, T), func() (*m1Sampler, error) {
		b, err := benchmark(env, model)
		if err != nil {
			return nil, err
		}
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
		if err != nil {
			return nil, err
		}
		opt := sample.Options{Ground: b.Ground, Workers: env.workers()}
		s, err := sample.New(ctx, b.Model, fam, T, opt)
		if err != nil {
			return nil, err
		}
		exact, err := sample.Exact(ctx, b.Model, fam, T, opt)
		if err != nil {
			return nil, err
		}
		return &m1Sampler{s: s, exact: exact}, nil
	})
}
