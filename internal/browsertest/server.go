package browsertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ServerOptions configure [StartServer].
type ServerOptions struct {
	// Jupyter is the jupyter command (default "jupyter").
	Jupyter string
	// NotebookDir is the directory the server serves; only copies of
	// notebooks should be put there, since the browser runs them.
	NotebookDir string
	// JupyterPath, if not empty, is put first in the server's JUPYTER_PATH,
	// so that a project-local kernelspec (.jupyter) is found.
	JupyterPath string
	// Log receives the server's output, which includes the kernels' logs.
	// Nil discards it.
	Log io.Writer
}

// Server is a classic Jupyter Notebook server listening on a free localhost
// port, with a random token. It runs in its own process group with private
// runtime and configuration directories. Stop it with [Server.Stop].
type Server struct {
	// URL is the server's base URL, ending in a slash.
	URL string
	// Token is the server's access token.
	Token string

	cmd     *exec.Cmd
	dir     string        // private directory: runtime (connection files) and config
	exited  chan struct{} // closed when the server process has exited
	waitErr error         // the process's exit status, once exited is closed
	tail    *tailBuffer   // the end of the server's output, for error messages
	stop    sync.Once
	stopErr error
}

// StartServer starts `jupyter notebook` on a free port of 127.0.0.1 and waits
// until it answers its status API. If ctx ends first, or the server exits, the
// server is stopped and an error with the end of its output is returned.
func StartServer(ctx context.Context, opt ServerOptions) (*Server, error) {
	jupyter := opt.Jupyter
	if jupyter == "" {
		jupyter = "jupyter"
	}
	if opt.NotebookDir == "" {
		return nil, errors.New("browsertest: ServerOptions.NotebookDir is empty")
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("browsertest: finding a free port: %w", err)
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pomdpq-jupyter-")
	if err != nil {
		return nil, fmt.Errorf("browsertest: %w", err)
	}
	for _, sub := range []string{"runtime", "config"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("browsertest: %w", err)
		}
	}
	s := &Server{
		URL:    fmt.Sprintf("http://127.0.0.1:%d/", port),
		Token:  token,
		dir:    dir,
		exited: make(chan struct{}),
		tail:   &tailBuffer{max: 8 << 10},
	}
	s.cmd = exec.Command(jupyter, "notebook",
		"--no-browser",
		"--ip=127.0.0.1",
		"--port="+strconv.Itoa(port),
		"--NotebookApp.port_retries=0", // fail rather than move to another port
		"--NotebookApp.token="+token,
		"--NotebookApp.password=",
		"--notebook-dir="+opt.NotebookDir,
	)
	if os.Geteuid() == 0 { // as in CI; the server refuses root otherwise
		s.cmd.Args = append(s.cmd.Args, "--allow-root")
	}
	env := os.Environ()
	env = append(env,
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"), // no user configuration (passwords, extensions)
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
		// The ε explorer waits this long (not its 10 s) for the page's
		// widgets to answer before it falls back to a static view: on a
		// loaded machine the first answer took longer than 10 s.
		"POMDPQ_EXPLORER_CONNECT=120s",
	)
	if opt.JupyterPath != "" {
		jp := opt.JupyterPath
		if old := os.Getenv("JUPYTER_PATH"); old != "" {
			jp += string(os.PathListSeparator) + old
		}
		env = append(env, "JUPYTER_PATH="+jp)
	}
	s.cmd.Env = env
	s.cmd.Dir = opt.NotebookDir
	var out io.Writer = s.tail
	if opt.Log != nil {
		out = io.MultiWriter(opt.Log, s.tail)
	}
	s.cmd.Stdout, s.cmd.Stderr = out, out
	// Its own process group, so that Stop can end the server with everything
	// it started in that group. If this process dies without stopping it, the
	// server gets SIGTERM, on which it shuts its kernels down and exits.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("browsertest: starting %s notebook: %w", jupyter, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()

	if err := s.waitReady(ctx); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

// Dir returns the server's private directory (connection files, config): a
// process whose command line names it belongs to this server.
func (s *Server) Dir() string { return s.dir }

// Pid returns the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// NotebookURL returns the URL that opens the notebook name (relative to the
// notebook directory) with the token.
func (s *Server) NotebookURL(name string) string {
	return s.URL + "notebooks/" + name + "?token=" + s.Token
}

func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"api/status", nil)
		if err != nil {
			return fmt.Errorf("browsertest: %w", err)
		}
		req.Header.Set("Authorization", "token "+s.Token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.exited:
			return fmt.Errorf("browsertest: the Jupyter server exited before answering (%v); its output ends with:\n%s",
				s.waitErr, s.tail.String())
		case <-ctx.Done():
			return fmt.Errorf("browsertest: the Jupyter server did not answer at %sapi/status: %w; its output ends with:\n%s",
				s.URL, ctx.Err(), s.tail.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// api calls the server's REST API.
func (s *Server) api(ctx context.Context, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+s.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(body))
	}
	if out != nil {
		return json.Unmarshal(body, out)
	}
	return nil
}

// ShutdownKernels asks the server to shut down every running kernel.
func (s *Server) ShutdownKernels(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var kernels []struct {
		ID string `json:"id"`
	}
	if err := s.api(ctx, http.MethodGet, "api/kernels", &kernels); err != nil {
		return fmt.Errorf("browsertest: listing kernels: %w", err)
	}
	var errs []error
	for _, k := range kernels {
		if err := s.api(ctx, http.MethodDelete, "api/kernels/"+k.ID, nil); err != nil {
			errs = append(errs, fmt.Errorf("browsertest: shutting down kernel %s: %w", k.ID, err))
		}
	}
	return errors.Join(errs...)
}

// Stop shuts the kernels down, ends the server's process group (SIGTERM,
// then SIGKILL after 10 s), kills whatever the server had started that is
// still alive, and removes the server's private directory. It is safe to call
// more than once; it returns an error if a process could not be ended.
func (s *Server) Stop() error {
	s.stop.Do(func() { s.stopErr = s.doStop() })
	return s.stopErr
}

func (s *Server) doStop() error {
	var errs []error
	select {
	case <-s.exited:
	default:
		// A clean shutdown first: the server tells each kernel to exit.
		if err := s.ShutdownKernels(context.Background()); err != nil {
			errs = append(errs, err)
		}
	}
	// Everything the server started, including kernels in their own session
	// and the programs they run, before the server goes and they are
	// re-parented.
	started := descendants(s.cmd.Process.Pid)
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-s.exited
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // anything left in the group
	for _, p := range started {
		p.kill()
	}
	for _, p := range processesMentioning(s.dir) {
		p.kill()
	}
	if left := Leftovers(s.dir); len(left) > 0 {
		errs = append(errs, fmt.Errorf("browsertest: processes of the Jupyter server survived Stop:\n%s", strings.Join(left, "\n")))
	}
	if err := os.RemoveAll(s.dir); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("browsertest: random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
