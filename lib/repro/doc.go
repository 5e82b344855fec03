// Package repro regenerates the paper's tables from the library and
// compares them, row by row, with the printed values transcribed under
// datasets/paper (docs/agreement.md).
//
// Each table is a Spec whose Build function computes the rows; Compare
// judges every printed cell of a row by its column's Kind and gives the row
// exactly one status: "agree" when every judged cell equals the printed
// value within its tolerance (the printed digits; the column's printed
// precision for ≈ cells), "statistical" or "pattern" when a judge
// (PatternOK) computed the verdict, "differs (explained)" when a second
// computation on the row (Table.Reconstruct, Table.Explain) accounts for
// the printed value, "differs" when nothing does, "not judged" when a
// printed value has no judge, and "setting" for rows whose printed values
// are inputs echoed back. Table.Counts summarises a table. The command
// `pomdpq reproduce` and the notebooks use the same specs.
package repro
