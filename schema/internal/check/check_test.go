package check_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

// This test binary does not link package schema/jsonvalidate, as a plain
// server does not: generated schemas work without the full engine, and
// what needs it says which import is missing.

type plainArgs struct {
	Mail  string `json:"mail" jsonschema:"format=email,maxLength=20"`
	Count int    `json:"count" jsonschema:"multipleOf=3"`
}

type durationArgs struct {
	Every string `json:"every" jsonschema:"format=duration"`
}

func TestWithoutTheEngine(t *testing.T) {
	if check.Full != nil {
		t.Fatal("the full engine is linked: something in this test's imports pulls in schema/jsonvalidate")
	}
	ty, err := schema.For(reflect.TypeFor[plainArgs](), schema.Options{})
	if err != nil {
		t.Fatalf("For of a tagged type needs the engine: %v", err)
	}
	_, err = ty.Bind([]byte(`{"mail":"not an address","count":4}`))
	if err == nil || !strings.Contains(err.Error(), "mail: must be a valid email") || !strings.Contains(err.Error(), "count: must be a multiple of 3") {
		t.Errorf("Bind without the engine: %v", err)
	}
	const pkg = "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"
	if _, err := schema.For(reflect.TypeFor[durationArgs](), schema.Options{}); err == nil || !strings.Contains(err.Error(), pkg) {
		t.Errorf("For of a type whose schema needs the engine: %v, want an error naming %s", err, pkg)
	}
	if _, err := schema.FromJSON([]byte(`{"type":"object"}`), schema.Options{}); err == nil || !strings.Contains(err.Error(), pkg) {
		t.Errorf("FromJSON without the engine: %v, want an error naming %s", err, pkg)
	}
	hs, err := schema.HeadersOf([]byte(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`))
	if err != nil || len(hs) != 1 {
		t.Errorf("HeadersOf without the engine: %v, %v", hs, err)
	}
}
