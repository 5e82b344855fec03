// Package clock2 computes the distances and ε-quotients of the
// deterministic clock-aware family with two nodes, Π^clk_{2,T}, exactly,
// without enumerating its (|A|²)^T·(2^{2|O|})^{T−1} controllers.
//
// Decomposition. A two-node clock-aware controller is a list of stage
// tables α_τ: {0,1} → A and β_τ: {0,1}×O → {0,1}. For a depth-t history h
// its suffix law depends on the tables of stages < t only through the
// belief b(h) they induce along h and the node n(h) they reach, and on
// the tables of stages ≥ t (the tail) in full. The tables of stages < t
// and ≥ t are independent, so for a pair (h, h') of depth-t histories
//
//	d(h, h') = max over realisable (J, J') of  max over tails R of W1(L(J, R), L(J', R)),
//
// where J is the joint distribution over (node, state) at h (b(h) on node
// n(h), or the stand-in of an impossible history) and L(J, R) the law of
// the remaining T − t observations. Along the two paths h, h' the prefix
// tables are constrained only where the paths share a node: while they
// share it they take the same action, and after the same observation they
// stay together; elsewhere every choice is free. The realisable pairs
// (J, J') are therefore found by a small search over the two paths
// (beliefs.roots), with beliefs interned after a relative rounding of
// every entry to 44 mantissa bits (internBits).
//
// The inner maximum over tails is a branch and bound over the stage
// tables, stage by stage (search). At a partial assignment the first k
// observation steps of both laws are known; any coupling of these
// prefixes glued with couplings of the conditional continuations bounds
// W1 from above, so
//
//	max_R W1 ≤ OT over (x, y) ∈ O^k × O^k of  c(x, y) + V(J_x, J_y, T − t − k),
//
// with V(J, J', r) = r·g_max·min(1, TV(J, J'), ρ(J − J')): the shared
// continuation is a Markov kernel from (node, state) to laws, so the laws'
// total variation is at most the joints' (and W1 ≤ r·g_max·TV); ρ is the
// norm of J − J' projected on the span of all continuation functionals
// (zero exactly when every continuation gives J and J' the same law),
// scaled to a bound on the laws' total variation. The span is built by
// Gram–Schmidt, dropping residuals below basisTol = 1e-14 (absolute): a
// dropped direction changes a law entry by at most 1.4e-14, below the
// enumeration's own LawTol (see basisTol). The basis is orthonormal only
// to roundoff, so the projected norm is scaled by 1/√(1 − ‖G − I‖_F) for
// its Gram matrix G (gramScale), which makes Σ_b ⟨b, Δ⟩² a true bound on
// |PΔ|₂²; TestBasisSpan checks the span against functionals computed by
// simulating every tail of up to three stages. Subtrees whose bound
// cannot change the answer are pruned; node relabelling symmetry halves
// every next-node table, and entries of nodes or observations without
// mass are not branched on.
//
// Decision mode (Options.Eps). The ε-partitions only need to know, for
// every listed ε, whether d ≤ ε. The search stops as soon as a probe
// exceeds the largest ε and otherwise prunes against the smallest listed
// ε above its best value, so every pair's best value lies in the same
// ε-bracket as its true distance: the greedy partitions computed on these
// values are exact at every listed ε. Without Eps the values are exact
// maxima (to partition.ZeroTol).
//
// Measured (2 shared cores, decision mode at ε = 0, 0.3, 0.5): Tiger
// T = 4 (26,873,856 controllers) in 0.002 s, T = 6 (5.6·10¹¹) in 0.03 s,
// T = 10 in 26 s; GridWorld 3×3 T = 4 (6.6·10¹²) in 7 s and 260 MiB,
// most of it the 10 million realisable roots of depth 3. Exact values
// cost more (Tiger T = 6: 4 s; GridWorld 3×3 T = 3: 4 s; T = 4 did not
// finish in 400 s): pairs above the largest ε need their maximum, not
// one probe past it.
//
// Impossible histories take the stand-in of the chosen convention
// (law.UniformStandIn: the uniform joint over (state, node), run with the
// controller's tables from stage t; law.PointMassStandIn: the point mass
// on the all-first-observation suffix), as the enumerating pipeline
// (lib/distance over fsc.Clock) does; the tests check both against it.
package clock2
