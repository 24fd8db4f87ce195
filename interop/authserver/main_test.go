package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/testproc"
)

// TestMain runs main when the test binary is started as the command.
func TestMain(m *testing.M) {
	if os.Getenv("AUTHSERVER_TEST_MAIN") == "1" {
		os.Args = append([]string{"authserver"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func command(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(testproc.Self(t), args...)
	cmd.Env = testproc.Env("AUTHSERVER_TEST_MAIN=1")
	return cmd
}

// TestCommand: the command prints its issuer when it is ready, serves
// its metadata there, and exits 0 on SIGTERM.
func TestCommand(t *testing.T) {
	cmd := command(t, "-addr", "127.0.0.1:0", "-path", "/t1", "-scopes", "mcp,admin")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	issuer := strings.TrimSpace(line)
	if !strings.HasPrefix(issuer, "http://127.0.0.1:") || !strings.HasSuffix(issuer, "/t1") {
		t.Fatalf("printed %q, want the issuer", line)
	}
	res, err := http.Get(strings.TrimSuffix(issuer, "/t1") + "/.well-known/oauth-authorization-server/t1")
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Issuer string   `json:"issuer"`
		Scopes []string `json:"scopes_supported"`
	}
	err = json.NewDecoder(res.Body).Decode(&md)
	res.Body.Close()
	if err != nil || md.Issuer != issuer || strings.Join(md.Scopes, ",") != "mcp,admin" {
		t.Fatalf("metadata %+v, %v", md, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
}

// TestBadFlag: a setting the server refuses ends the command with status
// 1 and says why.
func TestBadFlag(t *testing.T) {
	out, err := command(t, "-alg", "HS256").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "use ES256 or RS256") {
		t.Fatalf("exit %v, output %q", err, out)
	}
}
