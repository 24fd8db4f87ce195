package fastmcp_test

import (
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
)

// TestStdioIgnoresRedisURLEnv: a stdio server (ServeStdio, or Run without
// an address) that inherits FASTMCP_REDIS_URL — invalid, or naming a Redis
// the program does not link — serves all the same, over a real process,
// and says once in its log that the variable is not used, and once which
// stores it uses (memory, every one).
func TestStdioIgnoresRedisURLEnv(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"serve", "run"} {
		for _, url := range []string{"notaurl", "redis://127.0.0.1:1/0"} {
			t.Run(mode+" "+url, func(t *testing.T) {
				t.Parallel()
				var stderr syncBuffer
				cmd := testproc.Command(t, nil, stdioServerEnv+"="+mode, "FASTMCP_REDIS_URL="+url)
				cmd.Stderr = &stderr
				c, err := client.ConnectCommand(ctxT(t), cmd, client.WithLogger(quietLogger))
				if err != nil {
					t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
				}
				if err := c.Ping(ctxT(t)); err != nil {
					t.Errorf("ping: %v", err)
				}
				if err := c.Close(); err != nil {
					t.Fatalf("close: %v\n%s", err, stderr.String())
				}
				if n := strings.Count(stderr.String(), "FASTMCP_REDIS_URL is not used over stdio"); n != 1 {
					t.Errorf("%d log lines about FASTMCP_REDIS_URL over stdio, want 1:\n%s", n, stderr.String())
				}
				// The start-up line says where the state is kept.
				if want := `msg="stores in use" events=memory sessions=memory tasks=memory request_state_keys=memory bus=none`; strings.Count(stderr.String(), want) != 1 {
					t.Errorf("the log does not say once %q:\n%s", want, stderr.String())
				}
			})
		}
	}
}
