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

// Each method of Era, per era: the one place that says what differs
// between the two shapes of the protocol.
func TestEraMethods(t *testing.T) {
	type row struct {
		stateless, serverRequests, cacheHints, refusesMissingCapability, routingHeaders, tasks bool
		notFoundCode                                                                           int64
	}
	for _, tc := range []struct {
		e    Era
		want row
	}{
		{Legacy, row{serverRequests: true, notFoundCode: CodeResourceNotFound}},
		{Modern, row{stateless: true, cacheHints: true, refusesMissingCapability: true, routingHeaders: true, tasks: true, notFoundCode: CodeInvalidParams}},
	} {
		nf := tc.e.ResourceNotFound("file:///x")
		got := row{tc.e.Stateless(), tc.e.ServerRequests(), tc.e.CacheHints(), tc.e.RefusesMissingCapability(), tc.e.RoutingHeaders(), tc.e.TasksExtension(), nf.Code}
		if got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.e, got, tc.want)
		}
		if nf.Message != "Resource not found" || string(nf.Data) != `{"uri":"file:///x"}` {
			t.Errorf("%v: ResourceNotFound = %q, data %s", tc.e, nf.Message, nf.Data)
		}
	}
}

// Dropped agrees with the revision table: a method the latest legacy
// revision sends and the modern one does not is dropped, unless it moved
// (into the tasks extension, or into input requests); the Legacy era drops
// nothing.
func TestEraDropped(t *testing.T) {
	moved := map[string]bool{
		MethodTasksGet: true, MethodTasksResult: true, MethodTasksList: true, MethodTasksCancel: true, NotificationTasksStatus: true,
		MethodSamplingCreateMessage: true, MethodElicitationCreate: true, MethodRootsList: true,
	}
	dropped := 0
	for m := range methodRevisions {
		want := HasMethod(LatestLegacyVersion, m) && !HasMethod(LatestVersion, m) && !moved[m]
		if Modern.Dropped(m) != want {
			t.Errorf("Modern.Dropped(%s) = %v, want %v", m, !want, want)
		}
		if Legacy.Dropped(m) {
			t.Errorf("Legacy.Dropped(%s)", m)
		}
		if want {
			dropped++
		}
	}
	if dropped != 8 {
		t.Errorf("%d methods dropped, want the 8 of 2026-07-28", dropped)
	}
	for _, m := range []string{MethodToolsCall, MethodTasksUpdate, MethodServerDiscover, "x/unknown"} {
		if Modern.Dropped(m) {
			t.Errorf("Modern.Dropped(%s)", m)
		}
	}
	// ServerRequests agrees with the table too: the Modern era has no
	// server-to-client requests, they are input requests.
	for _, m := range []string{MethodSamplingCreateMessage, MethodElicitationCreate, MethodRootsList} {
		if HasMethod(LatestVersion, m) != Modern.ServerRequests() || HasMethod(LatestLegacyVersion, m) != Legacy.ServerRequests() {
			t.Errorf("%s: HasMethod disagrees with ServerRequests", m)
		}
	}
}
