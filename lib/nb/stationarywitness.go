package nb

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
)

// SuffixLawText writes a law p over the observation strings of length k (names
// of the observations) as "{UU: 0.75, UX: 0.25}": the strings of positive
// mass, in order, with 4 significant digits. p must have |O|^k entries.
func SuffixLawText(names []string, k int, p []float64) (string, error) {
	tr, err := law.NewTree(len(names), k)
	if err != nil {
		return "", err
	}
	if n := tr.SuffixLen(0); len(p) != n {
		return "", fmt.Errorf("nb: SuffixLawText: %d masses for %d strings of length %d", len(p), n, k)
	}
	var parts []string
	for i, v := range p {
		if v > 0 {
			parts = append(parts, tr.Label(names, k, i)+": "+FormatNumber(v, 4))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}

// AfterLR returns the suffix laws after the depth-1 histories L and R of
// the stationary witness b (observations named "L" and "R") under probe c
// at horizon 3 (point-mass stand-in), and their W1 distance under b's
// ground metric.
func AfterLR(b bench.Benchmark, c *fsc.FSC) (pL, pR []float64, w float64, err error) {
	m := b.Model
	const T = 3
	iL, iR := m.ObsIndex("L"), m.ObsIndex("R") // depth-1 history index = its observation
	if iL < 0 || iR < 0 {
		return nil, nil, 0, fmt.Errorf("nb: AfterLR: %s has no observations L and R", m.Name)
	}
	laws, err := law.Compute(m, c, T, law.PointMassStandIn)
	if err != nil {
		return nil, nil, 0, err
	}
	pL, pR = laws.Suffix(1, iL), laws.Suffix(1, iR)
	w, err = ot.SeqW1(b.Ground, T-1, pL, pR)
	return pL, pR, w, err
}
