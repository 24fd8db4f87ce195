package protocol_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// The revision predicates, per revision: the one place that says what each
// revision has.
func TestRevisionFeatures(t *testing.T) {
	type row struct {
		modern, legacy, batches, elicit, urlElicit, samplingTools, primes bool
	}
	want := map[string]row{
		protocol.Version20241105: {legacy: true},
		protocol.Version20250326: {legacy: true, batches: true},
		protocol.Version20250618: {legacy: true, elicit: true},
		protocol.Version20251125: {legacy: true, elicit: true, urlElicit: true, samplingTools: true, primes: true},
		protocol.Version20260728: {modern: true, elicit: true, urlElicit: true, samplingTools: true, primes: true},
	}
	for _, v := range protocol.SupportedVersions() {
		w, ok := want[v]
		if !ok {
			t.Fatalf("revision %s has no row", v)
		}
		got := row{protocol.EraOf(v).Stateless(), protocol.IsLegacy(v), protocol.HasBatches(v), protocol.HasElicitation(v),
			protocol.HasURLElicitation(v), protocol.HasSamplingTools(v), protocol.PrimesStreams(v)}
		if got != w {
			t.Errorf("%s: features %+v, want %+v", v, got, w)
		}
	}
	if protocol.IsLegacy("1999-01-01") || protocol.IsLegacy("") {
		t.Error("IsLegacy of an unsupported revision")
	}
}
