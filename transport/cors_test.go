package transport_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/transport"
)

func TestHostPolicyCORS(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	tests := []struct {
		name    string
		policy  transport.HostPolicy
		method  string
		header  map[string]string
		status  int
		want    map[string]string // "" means absent
		reached bool
	}{
		{
			name:   "preflight from a loopback origin",
			method: http.MethodOptions,
			header: map[string]string{"Origin": "http://localhost:6274", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type,Mcp-Protocol-Version, bad header, "},
			status: http.StatusNoContent,
			want: map[string]string{
				"Access-Control-Allow-Origin":      "http://localhost:6274",
				"Access-Control-Allow-Methods":     "GET, POST, DELETE, OPTIONS",
				"Access-Control-Allow-Headers":     "authorization, content-type, Mcp-Protocol-Version",
				"Access-Control-Max-Age":           "600",
				"Access-Control-Allow-Credentials": "",
			},
		},
		{
			name:   "preflight from a foreign origin",
			method: http.MethodOptions,
			header: map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
			status: http.StatusForbidden,
			want:   map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""},
		},
		{
			name:    "challenge readable by an allowed origin",
			method:  http.MethodPost,
			header:  map[string]string{"Origin": "http://127.0.0.1:6274"},
			status:  http.StatusUnauthorized,
			reached: true,
			want: map[string]string{
				"Access-Control-Allow-Origin":   "http://127.0.0.1:6274",
				"Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, DPoP-Nonce",
				"Vary":                          "Origin",
			},
		},
		{
			name:    "foreign origin gets no CORS headers",
			method:  http.MethodPost,
			header:  map[string]string{"Origin": "https://evil.example"},
			status:  http.StatusUnauthorized,
			reached: true,
			want:    map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Expose-Headers": ""},
		},
		{
			name:    "no Origin: untouched",
			method:  http.MethodPost,
			status:  http.StatusUnauthorized,
			reached: true,
			want:    map[string]string{"Access-Control-Allow-Origin": "", "Vary": ""},
		},
		{
			name:   "configured origin",
			policy: transport.HostPolicy{AllowedOrigins: []string{"https://app.example.com"}},
			method: http.MethodOptions,
			header: map[string]string{"Origin": "https://app.example.com", "Access-Control-Request-Method": "DELETE"},
			status: http.StatusNoContent,
			want:   map[string]string{"Access-Control-Allow-Origin": "https://app.example.com", "Access-Control-Allow-Headers": ""},
		},
		{
			name:   "loopback origin refused when origins are configured",
			policy: transport.HostPolicy{AllowedOrigins: []string{"https://app.example.com"}},
			method: http.MethodOptions,
			header: map[string]string{"Origin": "http://localhost:6274", "Access-Control-Request-Method": "POST"},
			status: http.StatusForbidden,
			want:   map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name:    "OPTIONS without a request method is not a preflight",
			method:  http.MethodOptions,
			header:  map[string]string{"Origin": "http://localhost:6274"},
			status:  http.StatusUnauthorized,
			reached: true,
			want:    map[string]string{"Access-Control-Allow-Origin": "http://localhost:6274"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reached := false
			h := tc.policy.CORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				inner.ServeHTTP(w, r)
			}))
			ts := httptest.NewServer(h)
			defer ts.Close()
			req, _ := http.NewRequest(tc.method, ts.URL+"/mcp", strings.NewReader("{}"))
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if reached != tc.reached {
				t.Errorf("reached the endpoint: %v, want %v", reached, tc.reached)
			}
			for k, v := range tc.want {
				if got := strings.Join(resp.Header.Values(k), ", "); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}
