// Package verdict is the verdict engine: it decides how a number of ours
// compares with a number the paper prints, and what status a compared row
// of a table gets (docs/agreement.md).
//
// Four things live here and nowhere else:
//
//   - The rule for printed precision (Parse, Agrees): a printed number
//     agrees with ours within half a unit of its last printed digit, and a
//     bare printed 0 is a claim of zero, compared within ZeroTolerance. The
//     same rules are written to a JSON file (RulesJSON) that the notebook
//     checker (scripts/nbcheck.py) reads, so that Go and Python cannot
//     disagree.
//   - The kinds of column (Kind) and the qualifiers of printed cells
//     (Qualifier: ≈, <, ∗), with the tolerance each implies (Check). A
//     Formula cell is arithmetic on the paper's own constants: checked,
//     and its row counted apart as a formula check, never as agreement.
//   - The row statuses (Status) as a type, the verdict of a judge
//     (Judgement, with a typed Outcome rather than a prefix of its note),
//     and the summary of a table (Counts).
//   - Explanations (Reading): an alternative reading of a table is declared
//     once for the whole table, covers named columns and gives a computed
//     value for each of them in every row; it explains a row only if it
//     accounts for every differing cell of that row (Decide).
//
// Package repro builds the tables and calls Decide for each row; package
// nb shows them; scripts/nbcheck.py checks notebooks with the same
// precision rule.
package verdict
