package fastmcp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestTaskLeaseSettings: lease settings that cannot work fail when the
// server is made, saying how to fix them; others are taken.
func TestTaskLeaseSettings(t *testing.T) {
	tests := []struct {
		name          string
		period, limit time.Duration
		panics        string // "" when accepted
	}{
		{"defaults", 0, 0, ""},
		{"period only", time.Minute, 0, ""}, // the timeout follows: three periods
		{"both", time.Second, 3 * time.Second, ""},
		{"timeout not longer than the period", time.Second, time.Second, "must be longer than LeasePeriod"},
		{"timeout below the default period", 0, time.Second, "must be longer than LeasePeriod"},
		{"negative", -time.Second, 0, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				fastmcp.New("s", "1", fastmcp.Tasks(fastmcp.TaskSettings{LeasePeriod: tt.period, LeaseTimeout: tt.limit}))
				return ""
			}()
			if (tt.panics == "") != (got == "") || !strings.Contains(got, tt.panics) {
				t.Errorf("New panicked with %q, want %q", got, tt.panics)
			}
		})
	}
}
