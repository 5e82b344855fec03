// Package repro regenerates the paper's tables from the library and
// compares them, row by row, with the printed values transcribed under
// datasets/paper (docs/agreement.md, "Kinds of agreement").
//
// Each table is a Spec whose Build function computes the rows; Compare
// gives every row exactly one status with package verdict's engine
// (verdict.Decide): "agree" when every judged cell equals the printed
// value within its tolerance (the printed digits; the column's printed
// precision for ≈ cells; a bare 0 as exactly zero), "statistical",
// "pattern" or "structural" from the typed outcome of the table's judge
// (PatternOK), "differs (explained)" when the table's one Reading,
// declared for the whole table and applied to every row, reproduces every
// differing cell of the row, "differs" when nothing does (a setting found
// for one row is a Remark, never an explanation), "not judged" when a
// printed value has no judge, and "setting" for rows whose printed values
// are inputs echoed back. Table.Counts summarises a table. The command
// `pomdpq reproduce` and the notebooks use the same specs.
//
// The text beside a table (Table.Notes, the remarks of its rows, its
// Reading's account and the columns it covers, its judges' verdicts)
// types no number:
// ours are formatted from the values computed for the table, the paper's
// are read from datasets/paper, and settings from the variables the
// computation uses. The golden files pin the row notes (NAME.csv) and the
// table's notes (NAME.notes.txt) under testdata/golden.
package repro
