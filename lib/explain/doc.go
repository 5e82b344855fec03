// Package explain reads an ε-quotient: it says why two histories (or two
// classes, through representatives) are apart, what a class is, and what a
// step of the class-count curve merged.
//
//   - ExplainPair runs every probe π of the family on the two histories
//     only — one suffix law per history and one transport problem per
//     probe, never a distance matrix — ranks the probes by
//     W1(P^π(O_{t+1:T} | h), P^π(O_{t+1:T} | h′)), and takes the argmax
//     apart: the probe in words, the two laws' heaviest sequences with
//     both probabilities, the largest moves of an optimal transport plan
//     (whose total cost is the distance) and the sequence whose
//     probability differs most, as a sentence. The distances are exact
//     whatever mode the quotient ran in. A transport problem too large
//     for lib/ot's solver is bounded first (the marginals' distances
//     below, a sequential coupling above) and solved, on the implicit
//     product graph of O^k (hamFlow for the discrete metric), only while
//     it can still be the argmax: the argmax's distance and plan are
//     always exact, another probe may be reported as bounds.
//   - ExplainClass describes class c of depth t of a partition: its
//     members, its class belief under a named probe (beliefs depend on the
//     actions taken along a history, so on the probe), the classes it
//     comes from and goes to, and the expected immediate reward of each
//     action.
//   - ExplainMerges lists, between two partitions of an ε grid, the
//     classes of the coarser one that join several classes of the finer,
//     with their realized diameter and the probe that comes closest to
//     separating their members.
//
// Suffix laws are computed by following the history and expanding only its
// subtree, with the arithmetic of package law, so they equal the laws the
// quotient's distances were computed from.
package explain
