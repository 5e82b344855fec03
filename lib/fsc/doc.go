// Package fsc holds finite-state controllers (FSCs), the probes of the
// paper's bounded observers (def:fsc), and the probe families built from
// them.
//
// An FSC has nodes 0 … m−1 and starts in node 0. At stage τ in node n it
// takes an action drawn from α_τ(n) and, after observing o, moves to a node
// drawn from β_τ(n, o). A stationary FSC uses the same (α, β) at every stage;
// a clock-aware FSC has stage-indexed maps (α_τ, β_τ), τ = 0 … T−1, the last
// β unused. Deterministic FSCs are stored as integer tables, stochastic ones
// as probability tables.
//
// Families (docs/conventions.md#probe-families):
//
//   - Stationary(m): every deterministic stationary FSC with 1 … m nodes,
//     every action assignment and every next-node table, duplicates
//     included; size Σ_{k=1..m} |A|^k · k^{k|O|} (Tiger m ≤ 2: 147).
//   - Clock(m, T): every deterministic clock-aware FSC with exactly m nodes;
//     size (|A|^m)^T · (m^{m|O|})^{T−1} (m = 1: the |A|^T open-loop strings;
//     Tiger m = 2, T = 2: 1,296).
//   - Sampled stochastic FSCs (stationary or clock-aware), drawn from a
//     seeded source.
//
// Families are enumerated lazily: At(i) decodes the i-th controller, so a
// family can be split across cores without being materialised. Before a
// family is built its size is estimated and compared with a limit
// (DefaultLimit unless the caller raises it); larger families are refused
// with an *TooLargeError.
package fsc
