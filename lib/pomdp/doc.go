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
// LoadFile and SaveFile read and write three formats, chosen by extension.
//
// ".pomdp" is Tony Cassandra's format, read with pomdp-solve's grammar by
// ReadCassandra (which documents it, and the POMDPs.jl dialect it also
// reads) and written by WriteCassandra. Names the format cannot hold are
// written under other names listed in a comment at the top of the file,
// and restored on reading (SafeNames, Rename). Costs are negated into
// rewards.
//
// ".pomdpx" is the XML format of SARSOP/APPL, read by ReadPOMDPX (which
// documents it) and written, as one state variable, by WritePOMDPX.
// Factored files become flat models whose states and observations are
// named by their variables' values ("robot=s23,rock0=good,…"); a fully
// observed variable's next value is part of every observation (the
// mixed-observability construction of ReadPOMDPX). WritePOMDPX renames
// names the format cannot hold as WriteCassandra does, in XML comments.
// LoadFile also reads as POMDPX a file whose content is XML, whatever its
// extension.
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
// ".json" is this module's format, read by ReadJSON and written by
// WriteJSON. It keeps arbitrary names and a missing discount exactly. A
// document is one object with these fields (testdata/tiger.json is a
// complete example):
//
//	{
//	  "name": "tiger",                                optional; default: the file name
//	  "states": ["tiger-left", "tiger-right"],        required, unique non-empty names
//	  "actions": ["listen", "open-left", "open-right"],
//	  "observations": ["hear-left", "hear-right"],
//	  "ground": "discrete",                           optional; the ground metric d_O (below)
//	  "discount": 0.95,                               optional; absent means no discount
//	  "start": [0.5, 0.5],                            optional; default uniform
//	  "transitions": [ ... ],                         required, T(s, a, s')
//	  "observation_model": [ ... ],                   required, Z(s', a, o)
//	  "rewards": [ ... ]                              optional; default all 0, R(s, a)
//	}
//
// "start" is either an array of |S| probabilities or an object
// {"state": probability} listing the non-zero entries.
//
// "transitions", "observation_model" and "rewards" are each either a list
// of entries naming everything (only non-zero entries need be listed; an
// entry may not appear twice):
//
//	"transitions":       [{"action": "listen", "from": "tiger-left", "to": "tiger-left", "p": 1}, ...]
//	"observation_model": [{"action": "listen", "to": "tiger-left", "obs": "hear-left", "p": 0.85}, ...]
//	"rewards":           [{"action": "listen", "state": "tiger-left", "r": -1}, ...]
//
// or an object of dense per-action arrays, with rows in the order of
// "states" and columns in the order of "states" (T) or "observations" (Z):
//
//	"transitions":       {"listen": [[1, 0], [0, 1]], ...}               |S|×|S| per action
//	"observation_model": {"listen": [[0.85, 0.15], [0.15, 0.85]], ...}   |S|×|O| per action
//	"rewards":           {"listen": [-1, -1], ...}                        |S| per action
//
// In "observation_model", "to" is the state arrived in (s'). Every row of
// T and Z and the start distribution must sum to 1 within FileRowTol; rows
// are renormalised as in ReadCassandra. Unknown fields are errors.
// WriteJSON writes the entry-list form with one entry per line.
//
// A reward of the next state and the observation (see Rewards below) is
// given in the entry-list form with "next" and "obs", {"action": "go",
// "state": "s0", "next": "s1", "obs": "beep", "r": 7}; a pair (state,
// action) has either one entry R(s, a) or entries R(s, a, s', o) (0 where
// none is given), each of an (s', o) that can follow it (T·Z > 0).
//
// "ground" is the ground metric d_O on the observations, in any form
// ReadGroundJSON reads: "discrete", a matrix with rows and columns in the
// order of "observations", or {"name": ..., "observations": [...],
// "matrix": [[...], ...]}. It must be a metric (ot.NewMetric). ReadJSON
// puts it in Model.Ground; a file without it leaves Model.Ground nil, and
// the computations then use what their caller passes (pomdpq: the discrete
// metric, printed as the default). The .pomdp format has no place for a
// ground metric: WriteCassandra writes it as comments only.
//
// # Ground-metric files
//
// LoadGround reads a ground metric for a model's observations from a
// ".json" file (ReadGroundJSON, the forms above) or a ".csv" file
// (ReadGroundCSV: a matrix, optionally with observation names as header
// and row labels); WriteGroundJSON and WriteGroundCSV write them. Errors
// name the file, the line and column, and the entry by observation names.
package pomdp
