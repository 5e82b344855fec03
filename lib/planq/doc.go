// Package planq plans through a quotient: it builds the ε-quotient of a
// model for a probe family Π (package distance, the engine of
// `pomdpq quotient`), plans on the quotient, lifts the quotient's policy
// back to the original model, evaluates both exactly and compares the
// measured regret with the certified bound of the paper (cor:sim-to-real,
// V_M(π*_M) − V_M(π*_M̃) ≤ 2·L_R·T·ε, and its cross-family form with
// δ_clk, cor:op-to-clk-transfer).
//
// Planners. BestFSC searches the family Π itself: every controller π is
// valued on the quotient seen by π (quotient.ForProbe, the object of
// thm:value-bound) and the first maximum is kept. OpenLoop does the same
// over the open-loop action strings (clock-aware m = 1 controllers). Both
// search all ε values in one pass over the family (BatchPlanner), split
// over the workers: a controller is valued from the class beliefs it
// induces without building the quotient model, once per distinct action
// tree and per distinct partition; the result does not depend on the
// number of workers. PBVI
// solves the quotient exported under a reference probe
// (quotient.Export) by point-based value iteration, and Command runs a
// user's solver on that exported model. The certified bound covers only
// policies of the family the quotient was built for; Bound says which
// theorem applies, with every term, or why none does. A row's Verdict is
// typed (Judge: WithinBound, BoundViolated, VacuousBound, …, String for
// its words); Verdict.Violated marks a certified bound the measured regret
// exceeds, on which `pomdpq plan` exits non-zero. Command reads the
// solver's policy file with the reader of its extension from its Readers
// (DefaultReaders: .pg, .alpha, SARSOP's .policy), passed in rather than
// registered globally.
//
// Lifting. A controller reads observations only, so a controller chosen on
// the quotient runs unchanged on the original: its lift is itself,
// unrolled to nodes (depth, controller node). A policy of quotient states
// (PBVI, alpha vectors) is lifted through the classes: a history of the
// original is followed through the quotient's successor map (the class of
// rep(c)·z after class c, quotient.Quotient.Next), and takes the action of
// the class it reaches. Either way the lifted policy is a layered policy
// graph (Lifted) whose depth-T nodes are absorbing; it is written as a
// pomdp-solve .pg and as JSON, and `pomdpq evaluate --horizon T` on it
// reproduces V_M.
//
// Values are expected returns over T stages discounted by the model's γ
// (1 when it has none), the convention of policy.Evaluate and of
// `pomdpq evaluate`; since Σ_{t<T} γ^t ≤ T, the bounds of the paper hold
// unchanged.
package planq
