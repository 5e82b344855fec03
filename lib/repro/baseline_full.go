package repro

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/baseline"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "baseline-full", Label: "tab:baseline-full",
		Title: "ε-quotient vs truncation, random, belief-distance and bisimulation partitions (m = 1, T = 2)", Build: baselineFull})
}

// ---------------------------------------------------------------------
// tab:baseline-full

func baselineFull(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "baseline-full", Paper: "baseline-full", Label: "tab:baseline-full",
		Title: "Full baseline comparison (m = 1, T = 2); value error of the paper's functional 1[o_1 = o_2 = first observation]",
		Columns: []Column{{"benchmark", Key}, {"method", Key}, {"eps", Key}, {"classes", Exact}, {"value_error", Exact},
			{"d_w", Exact}, {"time_s", Timing}, {"diameter", Info}},
	}
	const T, draws = 2, 20
	random := map[int][3][]float64{}
	var probes []string // constant probes per benchmark, for the notes
	truncation := fmt.Sprintf("Truncation (d=%d)", plTruncationDepth)
	for _, c := range []struct{ name, model string }{{"Tiger", "tiger"}, {"GridWorld 3x3", "gridworld:3"}} {
		start := time.Now()
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		probes = append(probes, fmt.Sprintf("%d (%s)", r.FamilySize, c.name))
		tCache := time.Since(start).Seconds()
		m := b.Model
		obj := baseline.AllFirst(T)
		startB := time.Now()
		beliefs, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{})
		if err != nil {
			return nil, err
		}
		tBelief := time.Since(startB).Seconds()
		startB = time.Now()
		bis, err := baseline.Bisimulation(ctx, m, baseline.BisimOptions{})
		if err != nil {
			return nil, err
		}
		lifted, err := baseline.BeliefDistances(ctx, m, T, baseline.BeliefOptions{Metric: baseline.BeliefW1, States: bis.Metric})
		if err != nil {
			return nil, err
		}
		tBisim := time.Since(startB).Seconds()
		for _, eps := range []float64{0.3, 0.5} {
			add := func(method string, p *partition.Partition, secs float64) error {
				s, _, err := plAssess(ctx, env, c.model, 1, T, p, obj)
				if err != nil {
					return err
				}
				t.Rows = append(t.Rows, []string{c.name, method, plEps(eps), itoa(s.Classes), f3(s.ValueError), f3(s.D), f3(secs), f3(s.Diameter)})
				return nil
			}
			startP := time.Now()
			pq := r.Partition(eps)
			if err := add("eps-quotient", pq, tCache+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			startP = time.Now()
			if err := add(truncation, baseline.Truncation(r.Tree, plTruncationDepth), time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			// Random partitions with the ε-quotient's class counts per
			// depth: mean over draws from one seeded source.
			startP = time.Now()
			src := rand.NewPCG(plRandomSeed, 0)
			var draw [3][]float64 // classes, value error, d_w per draw
			for k := 0; k < draws; k++ {
				s, _, err := plAssess(ctx, env, c.model, 1, T, baseline.RandomLike(r.Tree, pq, src), obj)
				if err != nil {
					return nil, err
				}
				draw[0] = append(draw[0], float64(s.Classes))
				draw[1] = append(draw[1], s.ValueError)
				draw[2] = append(draw[2], s.D)
			}
			random[len(t.Rows)] = draw
			mc, _ := plMeanStd(draw[0])
			mv, _ := plMeanStd(draw[1])
			md, _ := plMeanStd(draw[2])
			t.Rows = append(t.Rows, []string{c.name, "Random partition", plEps(eps), strconv.FormatFloat(mc, 'f', 1, 64),
				f3(mv), f3(md), f3(time.Since(startP).Seconds() / draws), ""})
			startP = time.Now()
			if err := add("Belief-distance", beliefs.Partition(eps), tBelief+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
			startP = time.Now()
			if err := add("Bisimulation", lifted.Partition(eps), tBisim+time.Since(startP).Seconds()); err != nil {
				return nil, err
			}
		}
	}
	t.PatternRow = func(i int) bool { _, ok := random[i]; return ok }
	t.PatternOK = func(i int) verdict.Judgement { return plRandomJudge(t, i, random[i]) }
	baselineFullNotes(t, probes, truncation, draws)
	return t, nil
}

// baselineFullNotes adds the notes of tab:baseline-full: probes are the
// constant probes per benchmark, truncation the truncation method's name,
// draws the random partitions per row.
func baselineFullNotes(t *Table, probes []string, truncation string, draws int) {
	// the rows whose partition is not an ε-partition: diameter > ε
	var wide []string
	for i := range t.Rows {
		eps, _ := strconv.ParseFloat(t.at(i, "eps"), 64)
		if d, err := strconv.ParseFloat(t.at(i, "diameter"), 64); err == nil && d > eps+1e-9 {
			wide = append(wide, fmt.Sprintf("%s %s at ε = %s (%s)", t.at(i, "benchmark"), t.at(i, "method"), t.at(i, "eps"), t.at(i, "diameter")))
		}
	}
	wideText := "every partition's diameter is at most its row's ε"
	if len(wide) > 0 {
		wideText = "the partitions whose diameter exceeds the row's ε are " + strings.Join(wide, ", ")
	}
	t.Notes = append(t.Notes,
		"value_error = max over the "+strings.Join(probes, " or ")+" constant probes of |E_M G − E_Q G| with G = 1[o_1 = o_2 = first observation] (baseline.AllFirst), Q the quotient seen by the probe; d_w = max over probes of W1(P_M, P_Q) on O². This functional reproduces every exact value_error of the table; the paper calls it a synthetic 1-Lipschitz reward.",
		fmt.Sprintf("Belief-distance: greedy complete linkage on the TV distance between the beliefs of the constant first action (listen, up). Bisimulation: Ferns et al. metric (%d iterations, γ = %s, rewards normalised by their range, no observation term) lifted to histories by W1 between those beliefs. %s: classes by the last d observations.",
			baseline.DefaultBisimIterations, fg(baseline.DefaultBisimDiscount), truncation),
		"diameter (ours) is the largest within-class probe distance d^Π: the ε for which the partition is an ε-partition, so thm:value-bound applies to every row with that ε; "+wideText+".",
		"Times are pattern-only (ours are Go on this machine; the paper's Python). The ε-quotient's time is the distance cache plus the partition (the paper prints ∗).",
		fmt.Sprintf("Random partition rows (the ε-quotient's class counts per depth, labels drawn from seed %d) are judged statistically: each printed mean must lie within %s standard errors of the mean of our %d draws (plus half a printed digit). Where the ε-quotient has one class per depth the draw is forced and the interval is a point.",
			plRandomSeed, fg(zNormal95), draws))
}

// plTruncationDepth is the depth of the truncation baseline (classes by
// the last observations).
const plTruncationDepth = 1

// plRandomSeed seeds the random-partition baseline of tab:baseline-full.
const plRandomSeed = 42

// plRandomJudge judges a random-partition row of tab:baseline-full: each
// printed mean (classes, value error, d_w) must lie within 1.96 standard
// errors of the mean of our draws, widened by half a unit of the printed
// digit (the paper's draws are not ours, so this is statistical).
func plRandomJudge(t *Table, i int, draw [3][]float64) verdict.Judgement {
	var bad, good, cols []string
	for k, c := range []int{3, 4, 5} {
		plo, phi, err := verdict.Interval(t.Printed[i][c])
		if err != nil {
			continue
		}
		m, sd := plMeanStd(draw[k])
		se := sd / math.Sqrt(float64(len(draw[k])))
		lo, hi := m-zNormal95*se, m+zNormal95*se
		iv := fmt.Sprintf("%s: paper %s, our mean %s ± %s (%d draws)", t.Columns[c].Name, t.Printed[i][c], f3(m), f3(zNormal95*se), len(draw[k]))
		if phi < lo || plo > hi {
			bad, cols = append(bad, iv), append(cols, t.Columns[c].Name)
		} else {
			good = append(good, iv)
		}
	}
	switch {
	case len(bad) > 0:
		return verdict.Differ("statistical: outside our interval: "+strings.Join(bad, "; "), cols...)
	case len(good) == 0:
		return verdict.NotJudgedBecause("no printed mean to judge")
	}
	return verdict.ByStatistics("statistical: inside our interval: " + strings.Join(good, "; "))
}
