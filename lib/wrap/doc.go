// Package wrap holds the wrappers of the paper's §5 and the layered horizon
// decomposition built on them.
//
// # Wrappers (def:wrapper, thm:data-processing)
//
// A wrapper W maps a POMDP M to W(M) through an action remapping
// g: A' → Δ(A) (an ActionMap) and an observation channel C: O → Δ(O')
// (a Channel carrying the ground metric d_{O'} of its outputs). Apply builds
// W(M) as an ordinary *pomdp.Model; the deterministic channel case is
// bench.CoarsenObservations, which Channel.Apply reuses. The channel's
// Lipschitz constant
//
//	L_C = max_{o ≠ o'} W1(C(o), C(o'); d_{O'}) / d_O(o, o')
//
// bounds how much the wrapper can stretch closed-loop distances:
// D(W(M), W(N)) ≤ L_C · D(M, N) whenever the probe family is closed under
// pullback (Wrapper.Pullback builds the pulled-back controller). The paper's
// proof rests on the law of W(M) under π' being the pushforward C^{⊗T}# of
// the law of M under the pullback of π'; that identity holds for
// deterministic channels and for one-node controllers, but not for a
// stochastic channel read by a controller with memory (see Wrapper.Pullback).
//
// # δ_O-coarsening (def:delta-coarsening, prop:obs-resolution)
//
// Cover finds a minimum δ-covering O_δ of the observations, Quantize the
// nearest-representative map q_δ: O → O_δ, its achieved resolution
// δ_O = max_o d_O(o, q_δ(o)) and the deterministic channel it defines, with
// d_O restricted to O_δ as the output metric.
//
// # Probe-dependent models
//
// A quotient of an ε-partition aggregates beliefs under the probe that
// runs on it (package quotient), so comparing a model with its quotient
// needs a model per probe. Model is that: Fixed(M), Quotient(q) and
// Wrapper.Of(src) compose, and Distance evaluates
// D_T^Π(A, B) = max_π W1(P_{A(π)}^π, P_{B(π)}^π) for any two of them.
//
// # Layered horizon decomposition (thm:layered-composition, prop:layered-complexity)
//
// Layer splits the horizon T into L = ⌈T/τ⌉ segments (τ each, the last one
// the remainder) and builds an ε-quotient per segment. Our reading of the
// paper's construction (App. H, "each computed independently"), documented
// on Layer: segment k is the model M started from a seed belief b_k and run
// for τ_k steps; b_1 = b0, and b_{k+1} is the canonical aggregated belief
// (uniform average of the beliefs of the members possible under the probe,
// Prop. C.1, docs/conventions.md#class-beliefs) of the class reached at
// the end of segment k — histories of full segment length have an empty
// suffix, so that class is unique. Each probe carries its own seed (beliefs
// depend on the probe's actions) and is restarted in node 0 at every
// segment. The layered model is the concatenation of the segment quotients;
// the reference it approximates is the segmented model (M restarted from the
// seeds at the boundaries). With identity wrappers between segments
// (L_j = 1, Γ_1 = 0) eq:layered-composition bounds the distortion of the
// layered model by Σ_k ε_k, where ε_k is the measured model-level residual
// of segment k (W1 is additive over independent segments under the additive
// sequence cost, so the bound is attained when one probe attains every ε_k).
// Layered.Distortion computes the left-hand side exactly, and also the
// distance between M and the segmented model, which the theorem
// does not cover (the cost of forgetting the history at a boundary).
//
// Histories processed are counted as tree nodes, Σ_{t=0..T} |O|^t for the
// direct method and Σ_k Σ_{t=0..τ_k} |O|^t for the layered one (one tree per
// segment): this is the rule that gives the paper's 31, 38, 62 and 126 in
// tab:hierarchical-scaling.
package wrap
