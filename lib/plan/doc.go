// Package plan selects policies on quotients and evaluates them back on
// the original model (paper §7.2–7.3: cor:exact-sufficiency,
// tab:observation-planning, tab:latent-planning-exact).
//
// OpenLoop evaluates every open-loop action string (the clock-aware m = 1
// probes) on a quotient in one pass over the tree of action prefixes: the
// beliefs of all depth-t histories under a prefix, the class beliefs
// aggregated from them and the quotient's class distribution are shared by
// every string with that prefix, so the |A|^T values cost
// O(Σ_t |A|^t·|O|^t·|S|) instead of |A|^T quotient constructions.
package plan
