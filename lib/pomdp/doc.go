// Package pomdp holds finite partially observable Markov decision processes
// over integer-indexed state, action and observation spaces.
//
// A Model stores the transition kernel T(s,a,s') per action as a Kernel
// (compressed sparse rows, or a Kronecker product of small factors for
// factored models such as Network Monitoring), the observation kernel
// Z(s',a,o) per action as a sparse matrix with rows s' and columns o, the
// reward R(s,a), the initial belief b0 and an optional discount.
//
// Models are validated once, by Validate (called by every constructor and
// loader of this module); belief updates and hot loops elsewhere trust them.
// Probabilities must be finite, non-negative, and every row of T and Z and
// the initial belief must sum to 1 within RowTol (CONVENTIONS.md).
//
// Conventions (paper def:pomdp): the observation o_{t+1} is emitted on
// arriving in s_{t+1} after action a_t, with probability Z(s_{t+1}, a_t, o).
package pomdp
