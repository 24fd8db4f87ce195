package protocol_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestParseRequestMeta(t *testing.T) {
	t.Parallel()
	modern := `{
		"name": "get_weather",
		"arguments": {"_meta": {"progressToken": "nested"}, "location": "New York"},
		"_meta": {
			"progressToken": 12.50,
			"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
			"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
			"io.modelcontextprotocol/logLevel": "warning",
			"traceparent": "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
			"com.example/flag": true
		}
	}`
	m, err := protocol.ParseRequestMeta(json.RawMessage(modern))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.ProgressToken.Raw(); got != "12.50" {
		t.Errorf("ProgressToken = %s, want the exact text 12.50", got)
	}
	if m.ProtocolVersion != protocol.Version20260728 {
		t.Errorf("ProtocolVersion = %q", m.ProtocolVersion)
	}
	if m.ClientInfo == nil || m.ClientInfo.Name != "ExampleClient" || m.ClientInfo.Version != "1.0.0" {
		t.Errorf("ClientInfo = %+v", m.ClientInfo)
	}
	if m.ClientCapabilities == nil || m.ClientCapabilities.Elicitation == nil || m.ClientCapabilities.Elicitation.Form == nil {
		t.Errorf("ClientCapabilities = %+v", m.ClientCapabilities)
	}
	if m.LogLevel != protocol.LevelWarning {
		t.Errorf("LogLevel = %q", m.LogLevel)
	}
	want := map[string]json.RawMessage{
		"traceparent":      json.RawMessage(`"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"`),
		"com.example/flag": json.RawMessage(`true`),
	}
	if !reflect.DeepEqual(m.Other, want) {
		t.Errorf("Other = %q, want %q", m.Other, want)
	}

	// A string token keeps its quotes; an absent one is the zero ID.
	m, err = protocol.ParseRequestMeta(json.RawMessage(`{"_meta":{"progressToken":"abc"}}`))
	if err != nil || m.ProgressToken != protocol.StringID("abc") {
		t.Errorf("string token: %+v, %v", m.ProgressToken, err)
	}

	// Escaped member names are matched after unescaping.
	m, err = protocol.ParseRequestMeta(json.RawMessage(`{"\u005fmeta":{"progress\u0054oken":5}}`))
	if err != nil || m.ProgressToken.Raw() != "5" {
		t.Errorf("escaped names: %+v, %v", m, err)
	}

	for _, params := range []string{``, `null`, `{}`, `{"name":"x"}`, `{"_meta":null}`, `[1,2]`, `{"a":{"_meta":{"progressToken":1}}}`} {
		m, err := protocol.ParseRequestMeta(json.RawMessage(params))
		if err != nil {
			t.Errorf("ParseRequestMeta(%s): %v", params, err)
		}
		if !reflect.DeepEqual(m, protocol.RequestMeta{}) {
			t.Errorf("ParseRequestMeta(%s) = %+v, want zero", params, m)
		}
	}

	for _, params := range []string{
		`{"_meta":"x"}`,
		`{"_meta":[]}`,
		`{"_meta":{"progressToken":true}}`,
		`{"_meta":{"progressToken":null}}`,
		`{"_meta":{"io.modelcontextprotocol/clientInfo":"me"}}`,
		`{"_meta":{"a":1,"a":2}}`,
	} {
		if _, err := protocol.ParseRequestMeta(json.RawMessage(params)); err == nil {
			t.Errorf("ParseRequestMeta(%s) succeeded, want an error", params)
		} else if !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("ParseRequestMeta(%s) = %v, want an invalid params error", params, err)
		}
	}
}

func TestRequestMetaCaseSensitive(t *testing.T) {
	t.Parallel()
	m, err := protocol.ParseRequestMeta(json.RawMessage(`{"_meta":{"ProgressToken":1,"IO.modelcontextprotocol/protocolVersion":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.ProgressToken.IsValid() || m.ProtocolVersion != "" {
		t.Errorf("case-insensitive match: %+v", m)
	}
	if len(m.Other) != 2 {
		t.Errorf("Other = %q, want both keys kept raw", m.Other)
	}
	// "_Meta" is not "_meta".
	m, err = protocol.ParseRequestMeta(json.RawMessage(`{"_Meta":{"progressToken":1}}`))
	if err != nil || m.ProgressToken.IsValid() {
		t.Errorf(`"_Meta" was read as _meta: %+v, %v`, m, err)
	}
}

func TestRequestMetaRoundTrip(t *testing.T) {
	t.Parallel()
	in := protocol.RequestMeta{
		ProgressToken:      protocol.Int64ID(7),
		ProtocolVersion:    protocol.Version20260728,
		ClientInfo:         &protocol.Implementation{Name: "c", Version: "1"},
		ClientCapabilities: &protocol.ClientCapabilities{},
		LogLevel:           protocol.LevelInfo,
		Other:              map[string]json.RawMessage{"com.example/x": json.RawMessage(`[1,2]`)},
	}
	b, err := protocol.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info","com.example/x":[1,2]}`
	if string(b) != want {
		t.Errorf("Marshal = %s\nwant      %s", b, want)
	}
	out, err := protocol.ParseRequestMeta(json.RawMessage(`{"_meta":` + string(b) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n got %+v\nwant %+v", out, in)
	}
}

func TestSetMeta(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params string
		key    string
		value  any
		want   string
	}{
		{"nil params", ``, "progressToken", 1, `{"_meta":{"progressToken":1}}`},
		{"null params", `null`, "progressToken", "a", `{"_meta":{"progressToken":"a"}}`},
		{"empty object", `{}`, "k", true, `{"_meta":{"k":true}}`},
		{"empty object with space", ` { } `, "k", true, ` {"_meta":{"k":true}} `},
		{"no _meta", `{"name":"x","arguments":{"_meta":1}}`, "k", 1, `{"_meta":{"k":1},"name":"x","arguments":{"_meta":1}}`},
		{"no _meta, spaced", "{\n  \"name\": \"x\"\n}", "k", 1, "{\"_meta\":{\"k\":1},\"name\": \"x\"\n}"},
		{"add to _meta", `{"name":"x","_meta":{"a":1},"z":2}`, "b", "B", `{"name":"x","_meta":{"a":1,"b":"B"},"z":2}`},
		{"replace in _meta", `{"_meta":{"a":1,"b":2,"c":3},"name":"x"}`, "b", []int{9}, `{"_meta":{"a":1,"c":3,"b":[9]},"name":"x"}`},
		{"replace escaped name", `{"_meta":{"\u0061":1}}`, "a", 2, `{"_meta":{"a":2}}`},
		{"null _meta", `{"_meta":null,"x":1}`, "a", 1, `{"_meta":{"a":1},"x":1}`},
		{"empty _meta", `{"_meta":{}}`, "a", 1, `{"_meta":{"a":1}}`},
		{"raw value", `{}`, "a", json.RawMessage(`{"z": 1}`), `{"_meta":{"a":{"z": 1}}}`},
		{"ID value", `{}`, protocol.MetaSubscriptionID, protocol.StringID("s-1"), `{"_meta":{"io.modelcontextprotocol/subscriptionId":"s-1"}}`},
		{"struct value", `{}`, protocol.MetaServerInfo, protocol.Implementation{Name: "s", Version: "2"}, `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"2"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			orig := tt.params
			in := []byte(tt.params)
			got, err := protocol.SetMeta(in, tt.key, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("SetMeta(%s, %q) =\n  %s\nwant\n  %s", tt.params, tt.key, got, tt.want)
			}
			if string(in) != orig {
				t.Errorf("SetMeta modified its input: %s", in)
			}
			// The result is strictly valid: no duplicate names.
			var v any
			if err := protocol.Unmarshal(got, &v); err != nil {
				t.Errorf("result does not decode strictly: %v", err)
			}
		})
	}
}

func TestSetMetaErrors(t *testing.T) {
	t.Parallel()
	for _, params := range []string{`[]`, `"x"`, `1`, `{"_meta":1}`, `{"_meta":[]}`} {
		if got, err := protocol.SetMeta(json.RawMessage(params), "k", 1); err == nil {
			t.Errorf("SetMeta(%s) = %s, want an error", params, got)
		}
	}
	if _, err := protocol.SetMeta(json.RawMessage(`{}`), "k", json.RawMessage(`{`)); err == nil {
		t.Error("SetMeta with an invalid raw value succeeded")
	}
	if _, err := protocol.SetMeta(json.RawMessage(`{}`), "k", func() {}); err == nil {
		t.Error("SetMeta with an unencodable value succeeded")
	}
}

func TestMergeMeta(t *testing.T) {
	t.Parallel()
	in := json.RawMessage(`{"name":"t","_meta":{"progressToken":1,"io.modelcontextprotocol/logLevel":"debug"}}`)
	got, err := protocol.MergeMeta(in, protocol.Meta{
		protocol.MetaProtocolVersion:    "2026-07-28",
		protocol.MetaLogLevel:           "error",
		protocol.MetaClientCapabilities: map[string]any{"roots": map[string]any{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"t","_meta":{"progressToken":1,"io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/logLevel":"error","io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`
	if string(got) != want {
		t.Errorf("MergeMeta =\n  %s\nwant\n  %s", got, want)
	}
	m, err := protocol.ParseRequestMeta(got)
	if err != nil {
		t.Fatal(err)
	}
	if m.LogLevel != protocol.LevelError || m.ProtocolVersion != "2026-07-28" || m.ProgressToken.Raw() != "1" || m.ClientCapabilities.Roots == nil {
		t.Errorf("parsed back: %+v", m)
	}
	// An empty merge still adds _meta.
	got, err = protocol.MergeMeta(json.RawMessage(`{"a":1}`), nil)
	if err != nil || string(got) != `{"_meta":{},"a":1}` {
		t.Errorf("MergeMeta(nil) = %s, %v", got, err)
	}
}

// benchParams is a typical tools/call params object of 2026-07-28, with the
// arguments before _meta so the scan must skip them.
var benchParams = json.RawMessage(`{"name":"get_weather","arguments":{"location":"New York","units":"metric","days":[1,2,3,4,5],"detail":{"hourly":true,"alerts":false}},` +
	`"_meta":{"progressToken":42,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/logLevel":"info"}}`)

func BenchmarkParseRequestMeta(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchParams)))
	for b.Loop() {
		if _, err := protocol.ParseRequestMeta(benchParams); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRequestMetaNoMeta is the legacy case: params without _meta.
func BenchmarkParseRequestMetaNoMeta(b *testing.B) {
	params := json.RawMessage(`{"name":"get_weather","arguments":{"location":"New York","units":"metric","days":[1,2,3,4,5]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := protocol.ParseRequestMeta(params); err != nil {
			b.Fatal(err)
		}
	}
}

// naiveMeta mirrors RequestMeta with struct tags only, decoded by reflection.
type naiveMeta struct {
	ProgressToken      protocol.ProgressToken       `json:"progressToken,omitzero"`
	ProtocolVersion    string                       `json:"io.modelcontextprotocol/protocolVersion,omitzero"`
	ClientInfo         *protocol.Implementation     `json:"io.modelcontextprotocol/clientInfo,omitzero"`
	ClientCapabilities *protocol.ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities,omitzero"`
	LogLevel           protocol.LoggingLevel        `json:"io.modelcontextprotocol/logLevel,omitzero"`
	Other              map[string]json.RawMessage   `json:",embed"`
}

// BenchmarkParseRequestMetaFloor decodes the whole params object into a
// struct holding _meta with reflection: the straightforward way
// ParseRequestMeta must beat.
func BenchmarkParseRequestMetaFloor(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchParams)))
	for b.Loop() {
		var p struct {
			Meta naiveMeta `json:"_meta"`
		}
		if err := protocol.Unmarshal(benchParams, &p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRequestMetaLargeArguments has 16 KiB of arguments before _meta.
func BenchmarkParseRequestMetaLargeArguments(b *testing.B) {
	params := json.RawMessage(`{"name":"write_file","arguments":{"path":"/tmp/x","content":"` + strings.Repeat("lorem ipsum ", 16<<10/12) + `"},` +
		`"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(params)))
	for b.Loop() {
		if _, err := protocol.ParseRequestMeta(params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSetMeta(b *testing.B) {
	withoutMeta := json.RawMessage(`{"name":"get_weather","arguments":{"location":"New York","units":"metric","days":[1,2,3,4,5]}}`)
	b.Run("add", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := protocol.SetMeta(withoutMeta, protocol.MetaProgressToken, protocol.Int64ID(42)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replace", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := protocol.SetMeta(benchParams, protocol.MetaLogLevel, json.RawMessage(`"error"`)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("merge", func(b *testing.B) {
		m := protocol.Meta{protocol.MetaProtocolVersion: "2026-07-28", protocol.MetaClientCapabilities: json.RawMessage(`{}`)}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := protocol.MergeMeta(withoutMeta, m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestSetMetaKeepsOtherMembers(t *testing.T) {
	t.Parallel()
	got, err := protocol.SetMeta(benchParams, protocol.MetaLogLevel, "error")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), `{"name":"get_weather","arguments":{"location":"New York"`) {
		t.Errorf("other members changed: %s", got)
	}
	if strings.Count(string(got), `io.modelcontextprotocol/logLevel`) != 1 {
		t.Errorf("duplicate key: %s", got)
	}
}

// TestMembers checks that Members yields each top-level member once, in
// order, with its exact text, stops where a caller stops, and yields
// nothing past a malformed part.
func TestMembers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		obj  string
		want []string
	}{
		{`{"a":1, "b" : {"c":[1,2]},"d":"x\u0041"}`, []string{`a=1`, `b={"c":[1,2]}`, `d="x\u0041"`}},
		{` {} `, nil},
		{`[1]`, nil},
		{`{"a":1,"b":}`, []string{`a=1`}},
		{``, nil},
	}
	for _, tc := range tests {
		var got []string
		for name, v := range protocol.Members(json.RawMessage(tc.obj)) {
			got = append(got, name+"="+string(v))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Members(%s) = %q, want %q", tc.obj, got, tc.want)
		}
	}
	n := 0
	for range protocol.Members(json.RawMessage(`{"a":1,"b":2,"c":3}`)) {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopped after %d members, want 2", n)
	}
}
