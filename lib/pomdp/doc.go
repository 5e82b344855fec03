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
// the initial belief must sum to 1 within RowTol (docs/conventions.md#tolerances).
//
// Conventions (paper def:pomdp): the observation o_{t+1} is emitted on
// arriving in s_{t+1} after action a_t, with probability Z(s_{t+1}, a_t, o).
//
// # Model files
//
// The file formats have a package each: cassandra (".pomdp", Tony
// Cassandra's format), pomdpx (".pomdpx", the XML format of SARSOP/APPL)
// and pomdpjson (".json", this module's format), each with a Read and a
// Write; package modelfile loads and saves a file in the format its
// extension and content choose. This package holds what they share: the
// reader options (MaxSize, MaxEntries, Lenient, ExpectedRewards,
// Describe), the errors they return (ParseError, ErrTooLarge), the
// description of a file read (Source) and the rename comments that carry
// names a format cannot hold (Rename, SafeNames, RestoreNames).
//
// # Rewards
//
// A file may make the reward depend on the next state and the observation
// (R: a : s : s' : o in ".pomdp", a <Func> with next-state or observation
// parents in ".pomdpx", "next" and "obs" in ".json"). Model.R is always the
// expected immediate reward R(s, a) = Σ_{s'} T(s, a, s') Σ_o Z(s', a, o)
// R(s, a, s', o): the value of a policy needs nothing else, and every
// computation of this module uses it. The full R(s, a, s', o) is kept
// beside it, sparse, in Model.Rewards (a RewardTable: only the pairs (s, a)
// whose reward is not one value over the (s', o) that can follow, and for
// those only the (s', o) with T·Z > 0), so that the three writers write it
// again and a round trip gives it back entry for entry; Model.Reward reads
// an entry. A model whose rewards depend on s and a only has no table. The
// reader option ExpectedRewards (pomdpq --expected-rewards) keeps the
// expectation only.
//
// # Ground-metric files
//
// LoadGround reads a ground metric for a model's observations from a
// ".json" file (ReadGroundJSON, the forms above) or a ".csv" file
// (ReadGroundCSV: a matrix, optionally with observation names as header
// and row labels); WriteGroundJSON and WriteGroundCSV write them. Errors
// name the file, the line and column, and the entry by observation names.
package pomdp
