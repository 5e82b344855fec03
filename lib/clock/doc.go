// Package clock computes the exact clock-aware quotient Q^clk and the
// operational quotient Q^op for one-node probes (m = 1) without
// enumerating history pairs or probes, and the cross-family gap δ_clk of
// cor:op-to-clk-transfer between their history-level distances.
//
// For m = 1 the clock-aware family Π^clk_{1,T} is the set of open-loop
// action strings s ∈ A^T and the operational family Π^op is its subset of
// the |A| constant strings (docs/conventions.md#probe-families). Under a string s a depth-t
// history h is followed by the belief b(h, s_{1:t}) reached by playing the
// prefix s_{1:t} while observing h, and its conditional suffix law is the
// law of the remaining observations when s_{t+1:T} is played from that
// belief. So
//
//	h ≡clk h'  ⇔  for every prefix p ∈ A^t:  b(h, p) ~_t b(h', p),
//	h ≡op  h'  ⇔  for every action a:        b(h, a^t) ~_{t,a} b(h', a^t),
//
// where b ~_t b' when every remaining string gives equal laws, decided by a
// backward recursion on beliefs (same one-step observation probabilities
// under every action and equivalent successors), and ~_{t,a} is the same
// recursion restricted to the constant action a. Beliefs are interned
// after rounding to 12 decimals and stored over their supports (the masses
// only once a belief is stepped; see beliefs), successors are memoised per
// (belief, action, observation), and the vector p ↦ b(h, p) of a history
// is stored as a hash-consed |A|-ary tree, so that the vector of h·o is
// computed from that of h once per distinct subtree: the |A|^t prefixes of
// a depth-t history are never listed one by one unless they really differ.
//
// Impossible (history, prefix) pairs. A history of probability 0 under a
// prefix has no conditional law; the exact pipeline gives it the
// point-mass law on the all-first-observation suffix (docs/conventions.md#stand-ins,
// law.PointMassStandIn), for both families. This package represents that
// stand-in as a pseudo-belief that emits observation 0 with probability 1
// under every action and stays the stand-in. Its class is therefore
// decided by the same law comparison as every real belief: a real belief
// whose every remaining string yields observation 0 surely has the same
// law as the stand-in and falls in its class, exactly as when laws are
// compared probe by probe (the brute-force check in the tests). This can
// only happen in models where some belief emits the first observation
// deterministically for the rest of the horizon.
//
// Options.Convention selects another reading, PossibilityPattern, that of
// the authors' exact pipeline: impossible pairs get a label of their own
// (no law), strings are labelled by their possibility pattern over the
// prefixes, and depth T is split by possibility (see Convention).
//
// Distances between histories (Distances) use the same belief vectors: a
// pair's distance is the maximum, over aligned prefixes, of a distance
// between belief pairs that is memoised per (belief pair, remaining
// horizon). Distances depend on histories only through their exact
// classes, so they are computed and stored per pair of classes (the gap
// per pair of classes of the meet of the two partitions), and maxima skip
// the belief pairs and strings that total-variation bounds show cannot
// reach them; EstimateCost sizes this stage from the quotients. Two
// transports are offered: the exact W1 between suffix laws of def:equiv
// (TransportW1, the default) and the recursive (nested, bicausal)
// transport that the paper's reference code used for δ_clk
// (TransportNested); see Transport.
//
// Relation to the paper's numbers (tab:probe-family-comparison). |Q^op|,
// |Q^clk| and ARI agree on every Tiger and GridWorld row under both
// conventions (Options.Convention). On the stationary witness at T = 3
// the reading of def:equiv (PointMass) gives 6 = 1+2+2+1 and 8 = 1+3+3+1
// classes (ARI 0.9996): only L, R, LU, RU and four depth-3 strings are
// possible, impossible strings share the stand-in's law, and depth 3 is
// one class. The printed 9 and 10 (ARI 0.957) come from the authors'
// labelling (PossibilityPattern): strings are labelled by their
// possibility pattern over the prefixes, with the all-strings belief
// class where possible, and depth 3 is split by the pattern, which gives
// 1+3+3+2 and 1+3+3+3 over all 156 strings. The printed column
// "max |d^clk − d^op|" is not the gap δ_clk (0 on Tiger T = 2, where both
// families give 0.49); it matches Distances.PaperColumn, the largest d^clk
// at depth ⌈T/2⌉. Distances.Gap is the quantity of cor:op-to-clk-transfer.
package clock
