package datasets

import "testing"

func TestPaperTables(t *testing.T) {
	h, rows, err := Paper("probe-family-comparison")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"benchmark", "horizon", "op_classes", "clk_classes", "ari", "max_gap", "obs_value_changed"}
	for i := range want {
		if h[i] != want[i] {
			t.Fatalf("header %v, want %v", h, want)
		}
	}
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9 (tab:probe-family-comparison)", len(rows))
	}
	if _, _, err := Paper("no-such-table"); err == nil {
		t.Fatal("missing table accepted")
	}
	c, err := Claims()
	if err != nil {
		t.Fatal(err)
	}
	if c["tiger_we_w1"].Value != "0.49" {
		t.Fatalf("claim tiger_we_w1 = %q, want 0.49", c["tiger_we_w1"].Value)
	}
	if len(PaperTables()) < 20 {
		t.Fatalf("only %d tables embedded", len(PaperTables()))
	}
}
