// Package statbb computes the distances and ε-quotients of the
// deterministic stationary family with at most m nodes, Π_op (the union
// over k = 1 … m of the k-node controllers), by a branch and bound over
// controllers instead of enumerating its Σ_k |A|^k·k^{k|O|} members
// (hallway, m ≤ 2: 1.1·10¹⁴).
//
// A k-node stationary controller is one action table α: nodes → A and one
// next-node table β: nodes × O → nodes, shared by every stage. For a pair
// (h, h') of depth-t histories the search assigns the entries of α and β
// lazily, in the order a simulation of both laws reads them: first along
// the two paths h and h' (which fixes the belief and the node reached at
// each, or makes a path impossible), then through the L = T − t remaining
// observations, level by level. A search node is the partial assignment
// read so far; its children give the next entry read each of its values.
// A leaf is an assignment of every entry either law reads: its value is
// the W1 of the two suffix laws, solved exactly (ot.Solver.SeqW1) only
// when bounds cannot decide it (see Leaves). Entries neither
// law reads are never branched on, which is what makes T = 2 and T = 3
// small on hallway: a depth-t pair reads at most 2(t + |O|^{L−1}) next-node
// entries and k actions.
//
// Bounds. At a search node the observation masses of both laws are known
// up to some level K (every action read before K is assigned) and some
// nodes of level K may be unknown (the entry β(n, o) that places them not
// yet assigned). Gluing any coupling of the level-K prefixes with couplings
// of the conditional continuations bounds W1 from above, so
//
//	max W1 ≤ OT over (x, y) ∈ O^K × O^K of  c(x, y) + U(x, y),
//
// where U(x, y) bounds the W1 of the continuations of the joints J_x, J_y
// over (node, state) with r = L − K steps left, maximised over every value
// of the unknown entries they involve (each entry takes one value for
// both, as in a controller): for r = 1 the exact W1 of the one-step
// observation laws, for r ≥ 2 r·g_max·TV(J_x, J_y) (the continuation is
// a Markov kernel shared by both sides). While an entry along the paths
// h, h' is unknown the bound is L·g_max (no pruning). Children are
// bounded first and visited best bound first.
//
// The glued bound can stay above W1 with every entry assigned (it is an
// adapted coupling). In decision mode, when the only unknown entries are
// read at the last level with every action assigned, the node is also
// bounded by a reference completion plus the largest move of the unknown
// components' last observations (refBound), and the values of such an
// entry whose node repeats a smaller node's action are not branched on
// (sameAction: bit-identical laws).
//
// The union over k. Under the point-mass stand-in and for k ≤ 2 under the
// uniform stand-in, every controller with fewer nodes has a k-node twin
// with the same laws (an unreachable node; under the uniform stand-in a
// second node with the first node's action and β ≡ 0), so the search over
// exactly m nodes gives the family's maximum. Under the uniform stand-in
// a k-node controller spreads an impossible history's mass over k nodes,
// so for m ≥ 3 the search runs k = 2 … m and takes the maximum.
//
// Leaves. A leaf's W1 v matters only through what the search keeps: in
// exact mode when v exceeds the best value so far, in decision mode
// through its ε-bracket when that is above the best value's. So a leaf
// is first bracketed between the one-step marginals' bound (and for
// L ≥ 3 the window bounds over L − 1 observations) and the sequential
// coupling or L·g_max·TV; when the upper bound cannot change the result,
// or (decision mode) both bounds lie in one bracket or the lower one
// exceeds the cap, the lower bound stands for v (exact mode: nothing is
// kept), and otherwise the exact solve stops as soon as a plan shows v
// below the bracket's end (ot.Solver.SeqW1Below). In decision mode the
// |A| constant-action controllers (every node takes action a, β ≡ 0)
// are evaluated before the branching: a pair one of them separates past
// the cap is decided without a search, and otherwise their best value is
// the first incumbent (docs/benchmarks.md has the measurements).
//
// Decision mode (Options.Eps) is clock2's: the search stops as soon as a
// controller exceeds the largest ε and otherwise prunes against the
// smallest listed ε above its best value, so every pair's best value lies
// in the ε-bracket of its distance and the greedy partitions at the listed
// ε are those of the enumeration, bit for bit (the tests check them on
// random models, Tiger and GridWorld). Without Eps values are exact maxima
// (to partition.ZeroTol).
//
// Impossible histories take the stand-in of the chosen convention, as
// lib/law does for an enumerated controller: law.UniformStandIn puts the
// uniform joint over (state, node) of the k nodes at the history and runs
// the controller from there; law.PointMassStandIn gives the point mass on
// the all-first-observation suffix. Whether a path is impossible depends
// on the actions the controller takes along it, so it is decided per
// search node.
package statbb
