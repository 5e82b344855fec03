// Package bench builds the benchmark POMDPs of the paper, entry for entry as
// defined in BENCHMARKS.md (0-based indices, names in the listed order).
//
// Every constructor returns a Benchmark: the validated *pomdp.Model, the
// ground metric d_O on its observations (an ot.Ground) and a one-line
// description. Lookup builds a benchmark from a short name such as
// "tiger", "gridworld:3", "rocksample:4:4", "rocksample:7:8", "tag",
// "netmon:9" or "random:20:7"; Names lists the accepted patterns.
//
// Models:
//
//   - Tiger (full actions) and TigerListen (listen only), discrete metric.
//   - GridWorld(n), GridWorldGoal(n) (reward 1 in the bottom-right cell) and
//     GridWorldCoarse(n) (observations merged to North/South), with the
//     geometric quadrant metric GridGround.
//   - Hallway(L), NetworkMonitoring(n) (factored transitions as a
//     pomdp.Kron), RockSample44 (the paper's RockSample(4,4)),
//     RandomStructured.
//   - Models people benchmark on: RockSample(n, k) of Smith & Simmons 2004
//     with the published layouts where known (RockSample(7,8): 12,545
//     states) and Tag of Pineau, Gordon & Thrun 2003 (870 states), both
//     discounted by 0.95, discrete metric.
//   - StationaryWitness (paper prop:stationary-counterexample),
//     InspectionChoice, Channel, and SensorGrid (our reconstruction of the
//     paper's appendix example, app:examples "Sensor grid").
//
// CoarsenObservations merges observation symbols of any model (a
// deterministic observation wrapper, paper thm:data-processing) and
// CoarsenGround gives the matching quotient metric.
//
// Sizes are bounded by MaxStates and MaxEntries so that a mistyped name such
// as "gridworld:100000" fails with ErrTooLarge instead of exhausting memory.
package bench
