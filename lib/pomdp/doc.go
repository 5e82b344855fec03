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
// LoadFile and SaveFile read and write two formats, chosen by extension.
//
// ".pomdp" is Tony Cassandra's format, read with pomdp-solve's grammar by
// ReadCassandra (which documents it) and written by WriteCassandra. Rewards
// R(a, s, s', o) in such files are reduced to the expected R(s, a); costs
// are negated into rewards.
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
package pomdp
