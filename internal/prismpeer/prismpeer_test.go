package prismpeer_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/prismpeer"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const spec = `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
      responses:
        "200":
          description: an item
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
              example: {id: 1}
`

// TestPrism: Prism answers a request the document allows, refuses one it
// does not (422, a violation logged), and reports both in order.
func TestPrism(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o600); err != nil {
		t.Fatal(err)
	}
	p := prismpeer.Start(t, path)
	for _, tc := range []struct {
		path   string
		status int
	}{{"/items/3", 200}, {"/items/0", 422}} {
		res, err := http.Get(p.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, res.StatusCode, tc.status)
		}
	}
	http.DefaultClient.CloseIdleConnections()
	rs := p.WaitRequests(t, 2)
	if len(rs) != 2 || rs[0].Path != "/items/3" || len(rs[0].Violations) != 0 || rs[1].Path != "/items/0" {
		t.Fatalf("requests = %+v", rs)
	}
	for range 1000 { // the log may lag the answer
		if rs = p.Requests(); len(rs[1].Violations) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(rs[1].Violations) == 0 || !strings.Contains(rs[1].Violations[0], "id") {
		t.Fatalf("violations of GET /items/0 = %q", rs[1].Violations)
	}
}
