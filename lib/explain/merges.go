package explain

import (
	"context"
	"fmt"
	"slices"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// Merge is one class of the coarser partition of a curve step that joins
// several classes of the finer one.
type Merge struct {
	// Class is the merged class "t:c" at the larger ε, Joined the classes
	// "t:c" at the smaller ε it is made of, Members its histories.
	Class   string   `json:"class"`
	Joined  []string `json:"joined"`
	Members int      `json:"members"`
	// Diameter is the largest distance between two of its members (over
	// the representatives of its exact classes; Exact is false when only
	// the first MaxReps of them were compared, a lower bound), between
	// History1 and History2; Nearest is the probe that attains it, the
	// one that comes closest to separating the class (for a searched
	// family, Setup.Search, the witness of the widest pair's search, with
	// index −1).
	Diameter float64       `json:"diameter"`
	Exact    bool          `json:"diameter_exact"`
	History1 string        `json:"history_1"`
	History2 string        `json:"history_2"`
	Nearest  ProbeDistance `json:"nearest_probe"`
}

// Merges is what one step of the class-count curve did.
type Merges struct {
	EpsFrom float64 `json:"eps_from"`
	EpsTo   float64 `json:"eps_to"`
	// ClassesFrom, ClassesTo are the class totals at the two ε; Count the
	// number of merged classes, of which Merges explains the first
	// (by depth, then label).
	ClassesFrom int     `json:"classes_from"`
	ClassesTo   int     `json:"classes_to"`
	Count       int     `json:"merged_classes"`
	Merges      []Merge `json:"merges"`
}

// MaxReps bounds the exact classes of one merged class whose pairs are
// compared for its diameter.
const MaxReps = 24

// maxLawBytes bounds the suffix laws one diameter holds at once.
const maxLawBytes = 1 << 30

// ExplainMerges compares the partitions fine (at epsFrom) and coarse (at
// epsTo ≥ epsFrom) of one run; exact is its exact (ε = 0) partition, whose
// classes' members are at distance 0, so pairs of their representatives
// give every distance inside a merged class.
func ExplainMerges(ctx context.Context, s *Setup, exact, fine, coarse *partition.Partition, epsFrom, epsTo float64) (*Merges, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if !fine.Refines(coarse) || !exact.Refines(fine) {
		return nil, fmt.Errorf("explain: the partitions do not refine each other (exact ⊑ ε = %g ⊑ ε = %g expected)", epsFrom, epsTo)
	}
	out := &Merges{EpsFrom: epsFrom, EpsTo: epsTo, ClassesFrom: fine.Total(), ClassesTo: coarse.Total()}
	nO := s.Model.NumObservations()
	for t := 0; t < coarse.Depths(); t++ {
		for c := 0; c < coarse.Classes(t); c++ {
			members := coarse.Members(t, c)
			var joined, reps []int
			for _, i := range members {
				if l := fine.Labels[t][i]; !slices.Contains(joined, l) {
					joined = append(joined, l)
				}
				if l := exact.Labels[t][i]; len(reps) < MaxReps+1 && !slices.ContainsFunc(reps, func(j int) bool { return exact.Labels[t][j] == l }) {
					reps = append(reps, i)
				}
			}
			if len(joined) < 2 {
				continue
			}
			out.Count++
			if len(out.Merges) >= s.top() {
				continue
			}
			mg := Merge{Class: fmt.Sprintf("%d:%d", t, c), Members: len(members), Exact: len(reps) <= MaxReps}
			slices.Sort(joined)
			for _, l := range joined {
				mg.Joined = append(mg.Joined, fmt.Sprintf("%d:%d", t, l))
			}
			reps = reps[:min(len(reps), MaxReps)]
			diameter := s.diameter
			if s.Family == nil {
				diameter = s.diameterSearched
			}
			if err := diameter(ctx, &mg, t, reps, nO); err != nil {
				return nil, err
			}
			out.Merges = append(out.Merges, mg)
		}
	}
	return out, nil
}

// diameter fills the merge's diameter from the pairs of reps, with each
// rep's suffix laws computed once per probe.
func (s *Setup) diameter(ctx context.Context, mg *Merge, t int, reps []int, nO int) error {
	n := s.Family.Len()
	if size := float64(len(reps)) * float64(n) * float64(ot.SeqLen(nO, s.T-t)) * 8; size > maxLawBytes {
		return fmt.Errorf("explain: the diameter of class %s would hold %d×%d suffix laws of %d sequences (%.3g bytes, above %d); use a smaller family or horizon",
			mg.Class, len(reps), n, ot.SeqLen(nO, s.T-t), size, maxLawBytes)
	}
	laws := make([][][]float64, len(reps))
	lw := newLawer(s.Model, s.T, s.Convention)
	for r, i := range reps {
		laws[r] = make([][]float64, n)
		for k := range n {
			laws[r][k], _ = lw.suffix(s.Family.At(k), digits(i, nO, t))
		}
	}
	var sol ot.Solver
	g := s.ground()
	best := ProbeDistance{Distance: -1}
	var b1, b2 int
	for x := range reps {
		for y := x + 1; y < len(reps); y++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			for k := range n {
				r, err := sol.SeqW1(g, s.T-t, laws[x][k], laws[y][k])
				if err != nil {
					return fmt.Errorf("explain: probe %d: %w", k, err)
				}
				if r.Value > best.Distance {
					best = ProbeDistance{Index: k, Distance: r.Value}
					b1, b2 = reps[x], reps[y]
				}
			}
		}
	}
	s.name(&best)
	mg.Diameter, mg.Nearest = best.Distance, best
	mg.History1, mg.History2 = HistoryWords(s.Model, digits(b1, nO, t)), HistoryWords(s.Model, digits(b2, nO, t))
	return nil
}
