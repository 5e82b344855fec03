package browsertest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func intp(n int) *int { return &n }

// cleanPage is a page as the quickstart renders it, reduced to one cell of
// each kind of display.
func cleanPage() *Page {
	return &Page{Notebook: "nb.ipynb", Cells: []Cell{
		{Index: 0, Type: "markdown", Source: "# Title"},
		{Index: 1, Type: "code", Source: "%%\nnb.Table(df)", Prompt: intp(1), Status: "ok", Outputs: []Output{
			{Classes: "output_subarea output_html rendered_html", Tables: []Table{{Rows: 2, Cols: 3, Caption: "rewards"}}},
			{Classes: "output_subarea output_stream output_stdout output_text", Text: "tiger"},
		}},
		{Index: 2, Type: "code", Source: "%%\nbar := nb.NewProgress(\"p\")", Prompt: intp(2), Status: "ok", Outputs: []Output{
			{Classes: "output_subarea output_html rendered_html", Bars: []Bar{{Text: "p: 75/75 (100%), finished in 1s", Width: "100%"}}},
		}},
		{Index: 3, Type: "code", Source: "%%\nnb.ShowCurves(...)\nnb.ShowQuotient(q)", Prompt: intp(3), Status: "ok", Outputs: []Output{
			{Classes: "output_subarea output_html rendered_html", SVGs: []SVG{{Width: 480, Height: 307, Title: "curves", Marks: 90}}},
			{Classes: "output_subarea output_html rendered_html", SVGs: []SVG{{Diagram: true, Width: 379, Height: 400, Marks: 20}}},
		}},
		{Index: 4, Type: "code", Source: "  \n"}, // an empty cell does not run
	}}
}

var wantAll = Expect{Tables: 1, Plots: 1, Diagrams: 1, Bars: 1}

func TestCheckPassesCleanPage(t *testing.T) {
	if err := cleanPage().Check(wantAll); err != nil {
		t.Fatal(err)
	}
}

// checkFails runs the check on page and returns its failures, failing the
// test if there are none.
func checkFails(t *testing.T, page *Page, e Expect) []Failure {
	t.Helper()
	err := page.Check(e)
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("the check passed a broken page (err = %v)", err)
	}
	t.Logf("%v", err)
	return ce.Failures
}

func TestCheckFailsOnPanickingCell(t *testing.T) {
	p := cleanPage()
	p.Cells[2].Status, p.Cells[2].EName, p.Cells[2].EValue = "error", "ERROR", "exit status 2"
	p.Cells[2].Outputs = append(p.Cells[2].Outputs,
		Output{Classes: "output_subarea output_stream output_stderr output_text", Text: "panic: boom\n\ngoroutine 1 [running]:\nexit status 2"},
		Output{Classes: "output_subarea output_text output_error", Text: "exit status 2"})
	f := checkFails(t, p, wantAll)
	if len(f) != 1 || f[0].Cell != 2 {
		t.Fatalf("want one failure, for cell index 2; got %+v", f)
	}
	for _, want := range []string{`cell 3 (In [2], "bar := nb.NewProgress(\"p\")")`, `the kernel replied "error" (ERROR: exit status 2)`,
		"an error output", "stderr output reporting an error", "panic: boom"} {
		if !strings.Contains(f[0].Message, want) {
			t.Errorf("failure lacks %q:\n%s", want, f[0].Message)
		}
	}
}

func TestCheckFailsOnPanicInStdout(t *testing.T) {
	p := cleanPage()
	p.Cells[1].Outputs[1].Text = "panic: runtime error: index out of range [3] with length 0"
	if f := checkFails(t, p, wantAll); f[0].Cell != 1 || !strings.Contains(f[0].Message, "Go panic") {
		t.Fatalf("got %+v", f)
	}
}

func TestCheckFailsOnCellsNotRun(t *testing.T) {
	p := cleanPage()
	p.Cells[1].Prompt, p.Cells[1].Status, p.Cells[1].Outputs = nil, "", nil
	p.Cells[3].Status = "aborted"
	f := checkFails(t, p, Expect{})
	if len(f) != 2 || !strings.Contains(f[0].Message, "cell 2 (In [ ]") || !strings.Contains(f[0].Message, "not executed") ||
		!strings.Contains(f[1].Message, "aborted") {
		t.Fatalf("got %+v", f)
	}
}

func TestCheckFailsOnMissingOrBrokenDisplays(t *testing.T) {
	p := cleanPage()
	p.Cells[2].Outputs[0].Bars[0] = Bar{Text: "p: 30/75 (40%)", Width: "40%"}
	p.Cells[3].Outputs = p.Cells[3].Outputs[1:] // no plot
	p.Cells[3].Outputs[0].SVGs[0].Width = 0     // a diagram that is not drawn
	f := checkFails(t, p, wantAll)
	var msgs []string
	for _, x := range f {
		msgs = append(msgs, x.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"cell 3 (In [2]", "progress bar not at 100 %", "cell 4 (In [3]", "is not drawn",
		"0 inline SVG plots, want at least 1", "0 quotient diagrams", "0 progress bars at 100 %"} {
		if !strings.Contains(all, want) {
			t.Errorf("failures lack %q:\n%s", want, all)
		}
	}
}

func TestCheckIgnoresHarmlessStderr(t *testing.T) {
	p := cleanPage()
	p.Cells[1].Outputs = append(p.Cells[1].Outputs, Output{Classes: "output_subarea output_stream output_stderr", Text: "computing 75 probe laws"})
	if err := p.Check(wantAll); err != nil {
		t.Fatal(err)
	}
}

func TestCopyNotebookStripsOutputsAndInserts(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.ipynb")
	nb := `{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# A"]},
	 {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["x"]}], "source": ["%%\n", "x"]}],
	 "metadata": {"kernelspec": {"name": "pomdpq"}}, "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(src, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "b.ipynb")
	if err := CopyNotebook(src, dst, InsertCodeCell(1, "%%\npanic(1)\n")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Cells []struct {
			Type    string   `json:"cell_type"`
			Count   *int     `json:"execution_count"`
			Outputs []any    `json:"outputs"`
			Source  []string `json:"source"`
		} `json:"cells"`
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Cells) != 3 || got.Cells[1].Type != "code" || strings.Join(got.Cells[1].Source, "") != "%%\npanic(1)\n" {
		t.Fatalf("inserted cell wrong: %+v", got.Cells)
	}
	if c := got.Cells[2]; c.Count != nil || len(c.Outputs) != 0 || strings.Join(c.Source, "") != "%%\nx" {
		t.Fatalf("outputs not stripped: %+v", c)
	}
	if got.Metadata["kernelspec"] == nil {
		t.Fatal("metadata lost")
	}
	if err := CopyNotebook(src, dst, InsertCodeCell(5, "x")); err == nil {
		t.Fatal("inserting past the end should fail")
	}
	if old, _ := os.ReadFile(src); string(old) != nb {
		t.Fatal("the source notebook was modified")
	}
}
