// Package pomdpjson reads and writes models in this module's JSON format.
//
// ".json" is this module's format, read by Read and written by
// Write. It keeps arbitrary names and a missing discount exactly. A
// document is one object with these fields (lib/pomdp/testdata/tiger.json
// is a complete example):
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
// T and Z and the start distribution must sum to 1 within pomdp.FileRowTol; rows
// are renormalised as in cassandra.Read. Unknown fields are errors.
// Write writes the entry-list form with one entry per line.
//
// A reward of the next state and the observation (see the package documentation of pomdp, # Rewards) is
// given in the entry-list form with "next" and "obs", {"action": "go",
// "state": "s0", "next": "s1", "obs": "beep", "r": 7}; a pair (state,
// action) has either one entry R(s, a) or entries R(s, a, s', o) (0 where
// none is given), each of an (s', o) that can follow it (T·Z > 0).
//
// "ground" is the ground metric d_O on the observations, in any form
// pomdp.ReadGroundJSON reads: "discrete", a matrix with rows and columns in the
// order of "observations", or {"name": ..., "observations": [...],
// "matrix": [[...], ...]}. It must be a metric (ot.NewMetric). Read
// puts it in pomdp.Model.Ground; a file without it leaves Model.Ground nil, and
// the computations then use what their caller passes (pomdpq: the discrete
// metric, printed as the default). The .pomdp format has no place for a
// ground metric: cassandra.Write writes it as comments only.
package pomdpjson
