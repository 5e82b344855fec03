package nb

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/pomdpq/pomdpq/lib/repro"
)

// Frame returns a regenerated table as a gota DataFrame: our columns
// (numeric where every cell parses as a number), then, for every column
// compared with the paper, the printed value in "NAME (paper)", then the
// agreement and note columns. Call t.Compare first to get the paper columns.
func Frame(t *repro.Table) dataframe.DataFrame {
	var cols []series.Series
	for c, col := range t.Columns {
		cells := make([]string, len(t.Rows))
		for i, r := range t.Rows {
			cells[i] = r[c]
		}
		cols = append(cols, column(col.Name, cells))
		if t.Printed == nil || col.Kind == repro.Key || col.Kind == repro.Info {
			continue
		}
		printed := make([]string, len(t.Rows))
		any := false
		for i := range t.Rows {
			printed[i] = t.Printed[i][c]
			any = any || printed[i] != ""
		}
		if any {
			cols = append(cols, series.New(printed, series.String, col.Name+" (paper)"))
		}
	}
	if t.Status != nil {
		marks := make([]string, len(t.Rows))
		for i, s := range t.Status {
			switch s {
			case repro.Agree:
				marks[i] = "✓"
			case repro.Statistical:
				marks[i] = "✓ (statistical)"
			case repro.Patterns:
				marks[i] = "✓ (pattern)"
			case repro.Explained:
				marks[i] = "✗ (explained)"
			case repro.Differs:
				marks[i] = "✗"
			case repro.Structural:
				marks[i] = "structural"
			case repro.SettingRow:
				marks[i] = "setting"
			case repro.FormulaCheck:
				marks[i] = "formula check"
			default:
				marks[i] = "–"
			}
		}
		cols = append(cols, series.New(marks, series.String, "agreement"), series.New(t.Note, series.String, "note"))
	}
	return dataframe.New(cols...)
}

// ShowRepro displays a regenerated table beside the paper's printed values,
// with per-row agreement and a summary ("7/9 judged rows agree with the
// paper", then the statistical, pattern, explained, unexplained,
// structural, formula-check, not judged and settings counts where there are any;
// repro.Counts), and below it the table's notes and what its one reading
// (if any) did on every row. It compares the table first if that has not
// been done.
func ShowRepro(t *repro.Table) error {
	if t.Status == nil {
		if _, err := t.Compare(); err != nil {
			return err
		}
	}
	c := t.Counts()
	caption := fmt.Sprintf("%s (%s): %d/%d judged rows agree with the paper", t.Title, t.Label, c.Agreeing(), c.Judged())
	if c.Statistical > 0 || c.Pattern > 0 {
		caption += fmt.Sprintf(" (%d exactly, %d statistically, %d by pattern)", c.Exact, c.Statistical, c.Pattern)
	}
	if c.Explained > 0 || c.Unexplained > 0 {
		caption += fmt.Sprintf("; %d differ with a computed explanation, %d without", c.Explained, c.Unexplained)
	}
	if c.Structural > 0 {
		caption += fmt.Sprintf("; %d structural (fixed by the model's sizes, not counted)", c.Structural)
	}
	if c.Formula > 0 {
		caption += fmt.Sprintf("; %d formula checks (arithmetic on the paper's constants, not counted)", c.Formula)
	}
	if c.NotJudged > 0 || c.Settings > 0 {
		caption += fmt.Sprintf("; %d not judged, %d settings (not counted)", c.NotJudged, c.Settings)
	}
	if err := Table(Frame(t), Caption(caption)); err != nil {
		return err
	}
	for _, n := range t.Notes {
		Markdown("*Note.* " + n)
	}
	if t.ReadingNote != "" {
		Markdown("*Reading.* " + t.ReadingNote)
	}
	return nil
}
