package report

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The pilot: after distance.Plan has computed the exact classes (so the
// real number of class pairs is known), a few of those pairs are solved,
// for a few probes, depth by depth, and the time per transport problem is
// extrapolated to every pair and every distinct probe. It uses only the
// public API of package distance (ComputePlanned over a coarser
// partition), on one worker, so its times are of one core (CPU seconds
// of the process, cpuNow, where the system gives them).
const (
	// PilotSeconds bounds the time the pilot of one horizon spends on
	// transport problems (each of its runs also recomputes its probes'
	// laws, and is given at least a quarter of it).
	PilotSeconds = 1.0
	// PilotProbes is the number of probes the pilot computes.
	PilotProbes = 2
	// maxRounds bounds the runs of one depth.
	maxRounds = 3
	// pilotMinSeconds is the pair time a depth's sample must reach (or
	// the whole depth be sampled) for its rate to be trusted over timer
	// and law-time noise.
	pilotMinSeconds = 0.05
)

// Pilot is what the pilot measured, per depth t < T.
type Pilot struct {
	// Probes is the number of distinct probes the pilot computed.
	Probes int
	// Sampled[t] is the number of class pairs of depth t it solved (per
	// probe); PerPair[t] the measured seconds of one transport problem of
	// depth t (one pair, one probe).
	Sampled []int64
	PerPair []float64
	// Lower says the pilot stopped early (its time, or the budget, ran
	// out): a depth was cut short or not sampled, and the estimate is a
	// lower bound.
	Lower bool
	// Seconds is the pilot's own wall time.
	Seconds float64
}

// sampled is the total of Sampled.
func (p Pilot) sampled() int64 {
	n := int64(0)
	for _, s := range p.Sampled {
		n += s
	}
	return n
}

// subFamily is a family restricted to some of its members.
type subFamily struct {
	fsc.Family
	idx []int
}

func (s subFamily) Len() int          { return len(s.idx) }
func (s subFamily) At(i int) *fsc.FSC { return s.Family.At(s.idx[i]) }
func (s subFamily) String() string {
	return fmt.Sprintf("%v (pilot: %d members)", s.Family, len(s.idx))
}

// spread returns k indices spread evenly over [0, n), k ≤ n.
func spread(n, k int) []int {
	idx := make([]int, k)
	for j := range idx {
		idx[j] = j * n / k
	}
	return idx
}

// pilotPartition keeps k of the classes of depth t (spread evenly) and
// merges everything else, at every depth, into one class. Its pairs at
// depth t are k(k+1)/2 pairs of true class representatives: the k kept
// classes' and the first history outside them, which is the
// representative of the unkept class that comes first. With k ≥ c_t − 1
// depth t keeps its true classes.
func pilotPartition(classes *partition.Partition, t, k int) *partition.Partition {
	labels := make([][]int, classes.Depths())
	for d := range labels {
		labels[d] = make([]int, len(classes.Labels[d]))
	}
	c := classes.Classes(t)
	if k >= c-1 {
		copy(labels[t], classes.Labels[t])
		return partition.FromLabels(labels)
	}
	keep := make(map[int]int, k)
	for j, cl := range spread(c, k) {
		keep[cl] = j + 1
	}
	for h, cl := range classes.Labels[t] {
		labels[t][h] = keep[cl]
	}
	return partition.FromLabels(labels)
}

// runPilot measures the seconds of one transport problem per depth of
// model m, family fam at horizon T, whose exact partition is classes,
// deepest depth first (the cheapest problems).
//
// Each run recomputes its probes' laws (lawPer seconds per probe, from
// distance.Plan) and the pair time is the run's distances phase less
// them, so a sample is sized for its pairs to take at least as long as
// those laws (and pilotMinSeconds): predicted from the depth below (|O|
// times its time per pair, the suffix laws being |O| times longer), then
// grown (at most maxRounds runs) until they do or the whole depth is
// sampled. The pilot stops early, with Lower set, once its pairs have
// taken PilotSeconds, or once the pairs measured so far, extrapolated
// (distinct probes × their depth's class pairs), exceed the budget of
// limit seconds of one pass (0: none): the estimate is then a lower
// bound, enough to refuse.
//
// The pilot's runs use the options of the computation estimated (dopt:
// decision mode at its listed ε, the memory budget), on one worker.
func runPilot(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, classes *partition.Partition, distinct int, lawPer, limit float64, dopt distance.Options) (Pilot, error) {
	start := time.Now()
	p := Pilot{Sampled: make([]int64, T), PerPair: make([]float64, T)}
	sub := subFamily{Family: fam, idx: spread(fam.Len(), min(PilotProbes, fam.Len()))}
	laws := lawPer * float64(sub.Len())
	want := max(laws, pilotMinSeconds) // the pair time a sample should reach
	nO := float64(m.NumObservations())
	total, spent, prev := 0.0, 0.0, 0.0
	for t := T - 1; t >= 0; t-- {
		c := classes.Classes(t)
		if c < 2 {
			continue
		}
		all := float64(c) * float64(c-1) / 2
		n := min(all, 2000) // the deepest suffixes: |O| atoms
		if prev > 0 {
			n = want / (prev * nO * float64(sub.Len()))
		}
		for round := 0; ; round++ {
			left := max(PilotSeconds-spent, PilotSeconds/4)
			n = min(max(n, 3), all, left/max(prev*nO*float64(sub.Len()), 1e-9))
			k := pilotK(n, c)
			pairs, secs, probes, done, err := pilotRun(ctx, m, sub, T, pilotPartition(classes, t, k), 3*laws+0.05+left, dopt)
			if err != nil {
				return p, err
			}
			spent += secs
			p.Probes = probes
			p.Sampled[t], p.PerPair[t] = done/int64(max(probes, 1)), secs/float64(done)
			if done == 0 {
				p.Lower, p.PerPair[t] = true, secs/float64(pairs*int64(probes))
			}
			if done < pairs*int64(probes) || secs >= want || k >= c-1 || spent > PilotSeconds || round+1 >= maxRounds {
				break
			}
			n = float64(pairs) * min(100, 2*want/max(secs, 1e-9))
		}
		prev = p.PerPair[t]
		total += prev * all * float64(distinct)
		if p.Lower || (limit > 0 && total > limit) || spent > PilotSeconds {
			p.Lower = p.Lower || hasPairs(classes, t-1)
			break
		}
	}
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

// pilotK returns the classes to keep for about n pairs: the least k with
// k(k+1)/2 ≥ n, at most c − 1 (the whole depth).
func pilotK(n float64, c int) int {
	k := int(math.Ceil((math.Sqrt(8*n+1) - 1) / 2))
	return min(max(k, 1), c-1)
}

// hasPairs reports whether a depth at or above t has two classes or more.
func hasPairs(classes *partition.Partition, t int) bool {
	for ; t >= 0; t-- {
		if classes.Classes(t) >= 2 {
			return true
		}
	}
	return false
}

// pilotRun solves the pairs of partition part for the probes of fam on
// one worker, within limit seconds, and returns the pairs per probe, the
// seconds spent on them (the distances phase less the laws, timed by the
// classes phase, which computes the same laws), the distinct probes and
// the pairs × probes solved (all of them, unless cut short).
func pilotRun(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, part *partition.Partition, limit float64, dopt distance.Options) (int64, float64, int, int64, error) {
	run, cancel := context.WithTimeout(ctx, time.Duration(limit*float64(time.Second)))
	defer cancel()
	times := map[string]float64{}
	var (
		mu   sync.Mutex // the callbacks may come from other goroutines
		last string
		done int64 // pairs × probes solved, by the distances phase's progress
	)
	at := cpuNow()
	phase := func(name string) {
		mu.Lock()
		defer mu.Unlock()
		now := cpuNow()
		times[last] += now - at
		last, at = name, now
	}
	progress := func(d, _ int) {
		mu.Lock()
		defer mu.Unlock()
		if last == "distances" {
			done = int64(d)
		}
	}
	dopt.Workers, dopt.Phase, dopt.Progress = 1, phase, progress
	res, err := distance.ComputePlanned(run, m, fam, T, dopt, part, nil)
	phase("")
	switch {
	case ctx.Err() != nil:
		return 0, 0, 0, 0, ctx.Err()
	case run.Err() != nil:
		// Cut short: done counts the pairs solved (at least).
	case err != nil:
		return 0, 0, 0, 0, err
	}
	probes := fam.Len()
	if res != nil {
		probes = res.Distinct
	}
	pairs := int64(0)
	for _, c := range part.Counts()[:T] {
		pairs += int64(c) * int64(c-1) / 2
	}
	if err == nil {
		done = pairs * int64(probes)
	}
	secs := math.Max(times["distances"]-times["classes"], 1e-9)
	return pairs, secs, probes, done, nil
}
