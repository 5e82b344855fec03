package distance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultMemBudgetCgroup checks that the default budget is half of the
// smaller of MemTotal and the control group's limit, for cgroup v1 and v2
// layouts, nested limits, "max" and unreadable files.
func TestDefaultMemBudgetCgroup(t *testing.T) {
	const gib = int64(1) << 30
	meminfo := "MemTotal:       25165824 kB\nMemFree: 1 kB\n" // 24 GiB
	tests := []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"no cgroup", map[string]string{"proc/meminfo": meminfo}, 12 * gib},
		{"nothing readable", map[string]string{}, 4 * gib},
		{"v2 limit on own group", map[string]string{
			"proc/meminfo":                      meminfo,
			"proc/self/cgroup":                  "0::/job/step\n",
			"sys/fs/cgroup/job/step/memory.max": "4294967296\n",
			"sys/fs/cgroup/job/memory.max":      "max\n",
		}, 2 * gib},
		{"v2 limit on an ancestor", map[string]string{
			"proc/meminfo":                      meminfo,
			"proc/self/cgroup":                  "0::/job/step\n",
			"sys/fs/cgroup/job/step/memory.max": "max\n",
			"sys/fs/cgroup/job/memory.max":      "2147483648\n",
		}, 1 * gib},
		{"v2 limit above physical", map[string]string{
			"proc/meminfo":               meminfo,
			"proc/self/cgroup":           "0::/a\n",
			"sys/fs/cgroup/a/memory.max": "107374182400\n",
		}, 12 * gib},
		{"v2 container root view", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "8589934592\n",
		}, 4 * gib},
		{"v1 memory controller", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "5:cpu,cpuacct:/x\n4:memory:/slurm/uid_0/job_7\n0::/\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": "6442450944\n",
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":             "9223372036854771712\n",
		}, 3 * gib},
		{"v1 unlimited", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory:/p\n",
			"sys/fs/cgroup/memory/p/memory.limit_in_bytes": "9223372036854771712\n",
		}, 12 * gib},
		{"garbage limit ignored", map[string]string{
			"proc/meminfo":               meminfo,
			"proc/self/cgroup":           "0::/a\n",
			"sys/fs/cgroup/a/memory.max": "lots\n",
		}, 12 * gib},
		{"cgroup without meminfo", map[string]string{
			"proc/self/cgroup":           "0::/a\n",
			"sys/fs/cgroup/a/memory.max": "1073741824\n",
		}, gib / 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := defaultMemBudget(root); got != tc.want {
				t.Errorf("defaultMemBudget = %s, want %s", FormatBytes(got), FormatBytes(tc.want))
			}
		})
	}
}
