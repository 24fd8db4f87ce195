package otel

import (
	"encoding/json"
	"maps"
	"slices"

	"go.opentelemetry.io/otel/propagation"
)

// metaCarrier reads propagated context from a request's params._meta
// entries (protocol.RequestMeta.Other): the W3C keys (traceparent,
// tracestate, baggage) unprefixed, as SEP-414 has them, each a JSON
// string.
type metaCarrier map[string]json.RawMessage

var _ propagation.TextMapCarrier = metaCarrier(nil)

// Get returns the string value of key, "" when absent or not a string.
func (m metaCarrier) Get(key string) string {
	raw, ok := m[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Set does nothing: the carrier is read-only (injection writes a
// propagation.MapCarrier into the outgoing _meta).
func (m metaCarrier) Set(string, string) {}

// Keys returns the _meta keys.
func (m metaCarrier) Keys() []string { return slices.Collect(maps.Keys(m)) }
