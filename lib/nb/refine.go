package nb

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// RefineComparison compares the two readings of alg:approx-partition
// (certify.Refine with the clique and the leader split rule) with greedy
// complete linkage (distance.Result.Partition) over an ε grid.
type RefineComparison struct {
	Grid                   int     // ε values compared
	CliqueSame, LeaderSame int     // how many times each rule gives the greedy partition
	CliqueExcess           float64 // max over ε of (diameter − ε), clique rule (≤ 0: ε-partition)
	LeaderExcess           float64 // the same for the leader rule
	FirstDiff              string  // first ε where the leader rule differs ("never" if none)
}

// CompareRefine compares, for every ε of grid, the partitions of r's
// distances by the clique and the leader rule with the greedy one.
func CompareRefine(r *distance.Result, grid []float64) RefineComparison {
	row := RefineComparison{Grid: len(grid), CliqueExcess: math.Inf(-1), LeaderExcess: math.Inf(-1)}
	for _, eps := range grid {
		g := r.Partition(eps)
		cl := certify.Refine(r.D, eps, certify.SplitClique)
		ld := certify.Refine(r.D, eps, certify.SplitLeader)
		if cl.Partition.Equal(g) {
			row.CliqueSame++
		}
		if ld.Partition.Equal(g) {
			row.LeaderSame++
		} else if row.FirstDiff == "" {
			row.FirstDiff = fmt.Sprintf("ε = %.2f: %d vs %d classes, leader diameter %s, ARI %s", eps, g.Total(), ld.Partition.Total(),
				FormatNumber(ld.Diameter, 4), FormatNumber(partition.ARIPartitions(g, ld.Partition), 4))
		}
		row.CliqueExcess = math.Max(row.CliqueExcess, cl.Diameter-eps)
		row.LeaderExcess = math.Max(row.LeaderExcess, ld.Diameter-eps)
	}
	if row.FirstDiff == "" {
		row.FirstDiff = "never"
	}
	return row
}
