package verdict

// Kind says how a column (or one cell) is compared with the paper.
type Kind int

const (
	// Key columns identify a row (benchmark, horizon, ε, …).
	Key Kind = iota
	// Exact columns must equal the printed value within the printed
	// precision (Check); cells the paper marks ≈ or < are compared with
	// the explicit tolerance or bound of their qualifier.
	Exact
	// Pattern columns (sampled statistics, random models, bounds) are
	// judged by the table's judge (a Judgement); a row with a printed
	// pattern cell and no judge is not judged.
	Pattern
	// Info columns are ours only.
	Info
	// Timing columns (wall-clock seconds and what derives from them) are
	// shown beside the printed values, never judged, and left out of
	// golden files.
	Timing
	// Setting columns echo an input of the computation back (a model's
	// size, a sample size, a controller count we chose): shown beside the
	// printed value, never counted as agreement.
	Setting
	// Formula columns are arithmetic on the paper's own constants (a
	// bound L_R·T·ε at the paper's L_R, T and ε): checked like Exact
	// cells, but a row whose only checked cells are formulas is a formula
	// check, counted apart from reproductions. Nothing of our computation
	// enters such a cell, so its agreement reproduces nothing.
	Formula
)

// Status is the verdict on a compared row. Every compared row gets
// exactly one, and Counts counts each row once, by its status. The string
// is what the CSV files show.
type Status string

// The statuses of a row.
const (
	// Agree: every judged cell equals the printed value within its
	// tolerance (deterministic computation).
	Agree Status = "agree"
	// Statistical: the printed values lie inside our sampling interval or
	// range (a judge's ByStatistics).
	Statistical Status = "statistical"
	// Patterns: a judge computed the row's condition (a bound, an
	// ordering, a maximiser) and it holds (ByPattern).
	Patterns Status = "pattern"
	// Structural: the printed values are fixed by the model's sizes alone
	// (class counts of a random model set by |O| and T) and ours equal
	// them (ByStructure); not counted as agreement with the paper.
	Structural Status = "structural"
	// Explained: the row differs and the table's one reading accounts for
	// every differing cell (Decide).
	Explained Status = "differs (explained)"
	// Differs: the row differs and nothing computed explains it.
	Differs Status = "differs"
	// NotJudged: printed values exist but nothing judges them.
	NotJudged Status = "not judged"
	// SettingRow: the row's only printed values are settings (inputs
	// echoed back): shown, never counted.
	SettingRow Status = "setting"
	// FormulaCheck: the row's only checked values are formulas on the
	// paper's own constants and each equals the printed value: the
	// paper's arithmetic is checked, nothing is reproduced; counted apart.
	FormulaCheck Status = "formula check"
	// OursOnly: the paper prints no counterpart.
	OursOnly Status = "ours only"
)

// Agreeing reports whether s counts as agreement with the paper (exact,
// statistical or pattern).
func (s Status) Agreeing() bool { return s == Agree || s == Statistical || s == Patterns }

// Counts summarises the statuses of a table: every row is in exactly one
// field.
type Counts struct {
	Exact       int // Agree
	Statistical int // Statistical
	Pattern     int // Patterns
	Structural  int // Structural
	Explained   int // Explained
	Unexplained int // Differs
	NotJudged   int // NotJudged
	Settings    int // SettingRow
	OursOnly    int // OursOnly
	Formula     int // FormulaCheck
}

// Count returns the counts of statuses.
func Count(statuses []Status) Counts {
	var c Counts
	for _, s := range statuses {
		c.add(s)
	}
	return c
}

func (c *Counts) add(s Status) {
	switch s {
	case Agree:
		c.Exact++
	case Statistical:
		c.Statistical++
	case Patterns:
		c.Pattern++
	case Structural:
		c.Structural++
	case Explained:
		c.Explained++
	case Differs:
		c.Unexplained++
	case NotJudged:
		c.NotJudged++
	case SettingRow:
		c.Settings++
	case OursOnly:
		c.OursOnly++
	case FormulaCheck:
		c.Formula++
	}
}

// Agreeing returns the rows that agree: exactly, statistically or by
// pattern (structural rows are not agreement).
func (c Counts) Agreeing() int { return c.Exact + c.Statistical + c.Pattern }

// Judged returns the rows with a verdict on the paper (agreeing or
// differing); structural, formula-check, not-judged and setting rows are
// not among them.
func (c Counts) Judged() int { return c.Agreeing() + c.Explained + c.Unexplained }

// Add returns the field-wise sum of c and d.
func (c Counts) Add(d Counts) Counts {
	return Counts{Exact: c.Exact + d.Exact, Statistical: c.Statistical + d.Statistical, Pattern: c.Pattern + d.Pattern,
		Structural: c.Structural + d.Structural, Explained: c.Explained + d.Explained, Unexplained: c.Unexplained + d.Unexplained,
		NotJudged: c.NotJudged + d.NotJudged, Settings: c.Settings + d.Settings, OursOnly: c.OursOnly + d.OursOnly,
		Formula: c.Formula + d.Formula}
}
