// Package runner runs one job of the classic-models table (a model file, a
// memory m, a horizon T and a method) within a time and a memory budget,
// and measures what it used.
//
// InProcess runs a job in the calling process: the whole job shares one
// deadline (Job.Seconds), every phase gets the memory budget (Job.Mem) as
// its own limit (distance.Plan and Compute, clock.NewDistances, and our
// estimate of a sampled run), and the peak is sampled from the Go
// runtime. InChild runs it in a child process (`pomdpq classic-row JOB`,
// which calls Serve) and enforces both limits on the whole child from the
// outside: the child's process group is killed TimeSlack after its time
// limit, and a watchdog reading the child's resident set (VmRSS of
// /proc/PID/status) every PollInterval kills it once the resident set
// exceeds the budget by MemSlack. Its peak is then the kernel's
// (getrusage ru_maxrss), so the documented bounds of a child are
//
//	wall time     ≤ Job.Seconds + TimeSlack + the time to kill and reap it,
//	peak resident ≤ Job.Mem + MemSlack + what it can touch in one PollInterval,
//
// and Result.Over says what happened when a job did not finish: refused
// by an estimate before allocating, stopped at the time limit, stopped by
// a metered table past the budget, or killed (and at what resident set).
//
// Exec is the process runner underneath, for any command.
package runner
