// Package value computes exact finite-horizon expected returns of
// finite-state controllers on POMDPs, exhaustive best-policy searches over
// probe families, observation-Lipschitz constants and the paper's value
// bounds (§3 def:obs-lipschitz, thm:value-bound, cor:sim-to-real; §4.2
// def:gobs, thm:exact-sufficiency; tab:observation-planning,
// tab:latent-planning-exact).
//
// Objectives. An Objective is one of
//
//   - LatentReward: Σ_{t<T} γ^t R(s_t, a_t) with the model's own reward
//     (undiscounted by default), e.g. Tiger's reward or GridWorldGoal's
//     goal reward;
//   - StepObjective: Σ_t r_t(a_t, o_t) on the observation–action trace,
//     where o_t follows a_t; ObsScore and ActionObsScore are the paper's;
//   - TraceObjective: any G(o_{1:T}, a_{1:T}), the class G_obs of def:gobs.
//
// WithObsReward turns the observation score into the synthetic
// 1-Lipschitz latent reward R(s, a) = E[v(O') | s, a].
//
// Evaluation is exact. Under any FSC the pair (state, controller node) is
// a Markov chain, so latent and step objectives cost one forward pass of
// its law, O(T) belief-sized steps. General trace objectives enumerate
// the traces of positive probability depth first, sharing each prefix's
// joint vector, and branch on actions for stochastic controllers; an
// a-priori bound on their number is checked against a raisable limit.
// Impossible histories contribute nothing. Every quantity is computed on
// a *pomdp.Model, so it applies unchanged to quotient models.
//
// Best searches a whole fsc.Family on all cores and returns the first
// optimal controller in family order (within 1e-9), the paper's tie-break;
// Policy renders open-loop controllers with Abbrev'd action names
// ("L L OL", "D R U").
//
// Bounds. RewardRange is R_max − R_min (Tiger: 110, rem:lipschitz-small);
// EstimateLipschitz measures the empirical L_R of def:obs-lipschitz over a
// family with exact W1 (package ot); Bound, RegretBound and TransferBound
// are L_R·T·ε, 2·L_R·T·ε and L_R·T·(ε + Σδ) (thm:value-bound,
// cor:sim-to-real, thm:cross-family-transfer,
// cor:subset-cross-family-transfer).
package value
