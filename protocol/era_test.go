package protocol

import "testing"

func TestEraOf(t *testing.T) {
	for _, tc := range []struct {
		v         string
		want      Era
		stateless bool
	}{
		{"", Legacy, false},
		{Version20241105, Legacy, false},
		{Version20251125, Legacy, false},
		{Version20260728, Modern, true},
		{"2027-01-01", Modern, true},
	} {
		e := EraOf(tc.v)
		if e != tc.want || e.Stateless() != tc.stateless {
			t.Errorf("EraOf(%q) = %v (stateless %v), want %v (stateless %v)", tc.v, e, e.Stateless(), tc.want, tc.stateless)
		}
	}
	if Legacy.String() != "legacy" || Modern.String() != "modern" {
		t.Errorf("String: %q, %q", Legacy, Modern)
	}
}
