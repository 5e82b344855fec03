package verdict

// Outcome is what a judge decided about a row's pattern cells. The zero
// value is Unjudged: a judge that cannot decide says so, and nothing
// defaults to agreement.
type Outcome int

// The outcomes of a judge.
const (
	// Unjudged: nothing was judged (no printed value parses, the row is
	// not reproduced, the statistic is not the paper's).
	Unjudged Outcome = iota
	// AgreeStatistically: the printed values lie inside our interval or
	// seed range.
	AgreeStatistically
	// AgreeByPattern: the computed condition holds.
	AgreeByPattern
	// AgreeStructurally: the printed values are fixed by the model's
	// sizes and ours equal them (not agreement with the paper).
	AgreeStructurally
	// Disagree: the judge found a difference.
	Disagree
)

// Judgement is a judge's verdict on the pattern cells of a row.
type Judgement struct {
	Outcome Outcome
	// Note says what was computed and compared.
	Note string
	// Differing names the columns a Disagree judgement found different:
	// the table's reading explains the row only if it covers each of them
	// (a Disagree without columns cannot be explained).
	Differing []string
}

// ByStatistics returns a passing statistical judgement.
func ByStatistics(note string) Judgement { return Judgement{Outcome: AgreeStatistically, Note: note} }

// ByPattern returns a passing pattern judgement: the computed condition holds.
func ByPattern(note string) Judgement { return Judgement{Outcome: AgreeByPattern, Note: note} }

// ByStructure returns a structural judgement: ours equal printed values
// that the model's sizes alone fix.
func ByStructure(note string) Judgement { return Judgement{Outcome: AgreeStructurally, Note: note} }

// Differ returns a failing judgement on the named columns.
func Differ(note string, columns ...string) Judgement {
	return Judgement{Outcome: Disagree, Note: note, Differing: columns}
}

// NotJudgedBecause returns a judgement that judges nothing, for the reason
// given.
func NotJudgedBecause(why string) Judgement { return Judgement{Outcome: Unjudged, Note: why} }

// status returns the status of a row whose only verdict is j.
func (j Judgement) status() Status {
	switch j.Outcome {
	case AgreeStatistically:
		return Statistical
	case AgreeByPattern:
		return Patterns
	case AgreeStructurally:
		return Structural
	case Disagree:
		return Differs
	}
	return NotJudged
}
