// Package repro regenerates the paper's tables from the library and
// compares them, row by row, with the printed values transcribed under
// datasets/paper (PAPER_MAP.md, "Kinds of agreement").
//
// Each table is a Spec whose Build function computes the rows; Compare
// marks every row: "agree" when every exact column equals the printed
// value to the printed digits (class counts, FSC counts and ARI exactly),
// "differs" otherwise — with the reason when the disagreement is understood
// ("paper differs: …") — and "pattern" rows (timings, random models) are
// judged by their qualitative shape only. The command `pomdpq reproduce`
// and the notebooks use the same specs.
package repro
