package planq

import "os/exec"

// ownGroup does nothing in a browser (GOOS=js), where no command runs.
func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process, the only one a browser could have.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// watchGroup does nothing in a browser (GOOS=js), where no command runs.
func watchGroup(int) (func(), error) { return func() {}, nil }
