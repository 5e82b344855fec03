// Package quotient builds the quotient POMDP of a history partition
// (def:quotient) and checks it: class representatives and successor
// classes, canonical belief aggregation (the uniform average of the beliefs
// of the members possible under the probe, Proposition C.1; a class with no
// possible member keeps the uniform stand-in, docs/conventions.md#class-beliefs),
// the quotient as an ordinary POMDP, its laws under any probe, and the
// soundness check P_M^π = P_Q^π of thm:myhill-nerode (ii).
//
// Beliefs after a history depend on the actions taken while it was
// observed; under a probe π those are π's own actions (docs/conventions.md#beliefs). The
// quotient seen by π therefore aggregates the members' beliefs under π:
// ForProbe returns that quotient as a *pomdp.Model, so laws, values and
// planners run on it unchanged. Its states are pairs (class at depth t,
// last observation): the observation emitted on entering a class is part
// of the state, which keeps the model an ordinary POMDP even when an
// ε-class holds histories ending in different observations. Depth-T
// states are absorbing.
//
// The successor of class c under observation z is the class of rep(c)·z,
// where rep(c) is the lexicographically smallest member (docs/conventions.md#representatives);
// for exact partitions right-invariance (prop:equiv-props) makes this
// independent of the representative.
//
// Export returns a standalone model aggregated under one reference probe.
// When beliefs do not depend on actions (listen-only models, or any model
// with one action) every probe induces the same beliefs and the exported
// model is the quotient for every probe; otherwise it is the quotient seen
// by the reference probe, and the documentation of the result says so.
package quotient
