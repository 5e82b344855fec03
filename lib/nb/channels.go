package nb

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/repro"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

// LineGround is the metric of four points 0, 0.9, 1.1 and 2 on a line,
// |x − y|.
var LineGround = ot.Ground{{0, 0.9, 1.1, 2}, {0.9, 0, 0.2, 1.1}, {1.1, 0.2, 0, 0.9}, {2, 1.1, 0.9, 0}}

// GridMerge is GridWorld's observation merge NW, NE → North and SW, SE →
// South (bench.GridCoarsening), with the quotient metric on its outputs.
func GridMerge() (*wrap.Channel, error) {
	groups, names := bench.GridCoarsening()
	return wrap.Merge(groups, names, bench.GridGround())
}

// FlipChannel is Tiger's observation channel that swaps L and R with
// probability p (discrete metric on its outputs).
func FlipChannel(p float64) (*wrap.Channel, error) {
	return wrap.NewChannel([][]float64{{1 - p, p}, {p, 1 - p}}, []string{"L", "R"}, nil)
}

// ChannelRow is one observation channel of def:wrapper with its Lipschitz
// constant (see [ChannelTable]).
type ChannelRow struct {
	Name, Map, From string  // the channel, what it does, the input metric
	Det             bool    // deterministic (a merge)
	L               float64 // Lipschitz constant L_C from the input metric to W1 on the outputs
	Pair            string  // the pair of inputs attaining L
}

// channelCase is a channel of [ChannelTable] with its input metric (nil:
// discrete) and input names.
type channelCase struct {
	name, mp, from string
	ch             *wrap.Channel
	g              ot.Ground
	in             []string
}

// ChannelTable returns six observation channels of def:wrapper (GridWorld
// merges with two output metrics, GridWorld's adjacent-quadrant noise,
// Tiger's flips, a quantizer on a line) with their Lipschitz constants.
func ChannelTable() ([]ChannelRow, error) {
	cases, err := channelCases()
	if err != nil {
		return nil, err
	}
	var rows []ChannelRow
	for _, c := range cases {
		L, o1, o2, err := c.ch.Lipschitz(c.g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		_, det := c.ch.Groups()
		rows = append(rows, ChannelRow{c.name, c.mp, c.from, det, L, c.in[o1] + ", " + c.in[o2]})
	}
	return rows, nil
}

// channelCases builds the channels of [ChannelTable].
func channelCases() ([]channelCase, error) {
	merge, err := GridMerge()
	if err != nil {
		return nil, err
	}
	groups, names := bench.GridCoarsening()
	p := make([][]float64, 4)
	for j, g := range groups {
		for _, o := range g {
			p[o] = make([]float64, 2)
			p[o][j] = 1
		}
	}
	mergeDiscrete, err := wrap.NewChannel(p, names, ot.Discrete(2))
	if err != nil {
		return nil, err
	}
	noise, err := repro.GridNoise(0.2)
	if err != nil {
		return nil, err
	}
	q, err := wrap.Quantize(LineGround, []string{"0", "0.9", "1.1", "2"}, []int{0, 3})
	if err != nil {
		return nil, err
	}
	f1, err := FlipChannel(0.1)
	if err != nil {
		return nil, err
	}
	f2, err := FlipChannel(0.25)
	quad, lr, line := []string{"NW", "NE", "SW", "SE"}, []string{"L", "R"}, []string{"0", "0.9", "1.1", "2"}
	return []channelCase{
		{"GridWorld merge, quotient metric", "NW,NE→North; SW,SE→South, d(N,S) = 0.5", "geometric", merge, bench.GridGround(), quad},
		{"GridWorld merge, discrete output metric", "same merge, d(N,S) = 1", "geometric", mergeDiscrete, bench.GridGround(), quad},
		{"GridWorld adjacent-quadrant noise 0.2", "true quadrant 0.8, each adjacent 0.1", "geometric", noise, bench.GridGround(), quad},
		{"Tiger flip 0.1", "L↔R with probability 0.1", "discrete", f1, nil, lr},
		{"Tiger flip 0.25", "L↔R with probability 0.25", "discrete", f2, nil, lr},
		{"line quantizer onto {0, 2}", "q(0.9) = 0, q(1.1) = 2 (δ_O = 0.9)", "|x − y|", q.Channel, LineGround, line},
	}, err
}
