// Package bench builds the benchmark POMDPs of the paper, entry for entry as
// defined in docs/benchmarks.md (0-based indices, names in the listed order).
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
//   - Classic problems of the literature typed from their published
//     definitions (classic.go), with discrete metrics: Tiger95 (Kaelbling,
//     Littman & Cassandra 1998, discount 0.95), Maze4x3 (Russell & Norvig's
//     4×3 maze with Parr & Russell's wall sensors), Cheese (McCallum 1993),
//     OneD (Cassandra, Kaelbling & Littman 1994) and Paint (Kushmerick,
//     Hanks & Weld 1995). Their state orders follow the files of Cassandra's
//     pomdp-solve examples, and the tests compare them with those files
//     entry for entry when the files are available.
//
// CoarsenObservations merges observation symbols of any model (a
// deterministic observation wrapper, paper thm:data-processing) and
// CoarsenGround gives the matching quotient metric.
//
// Sizes are bounded by MaxStates and MaxEntries so that a mistyped name such
// as "gridworld:100000" fails with ErrTooLarge instead of exhausting memory.
package bench
