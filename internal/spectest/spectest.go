// Package spectest validates JSON against the official MCP schemas, so tests
// can check that every message fastmcp writes is what the specification
// says.
//
// The schemas are read from schema/<revision>/schema.json under the
// directory named by FASTMCP_SPEC_DIR or, by default, ../shared/mcp-spec
// beside the module root (the directory holding go.mod). A fresh clone has
// no such directory: a test that needs the schemas calls Require (or
// Available) first, before it starts anything, so it is skipped cleanly;
// make test then says once how many tests were skipped and why (see
// EnvReport). Where the schemas must be present (CI=true or
// FASTMCP_REQUIRE_SPEC=1) Require fails the test instead of skipping it.
//
// Compiled schemas are cached for the life of the test binary; all
// functions are safe for concurrent use.
package spectest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Revisions returns the revisions with a schema, oldest first. The caller
// owns the returned slice.
func Revisions() []string {
	return []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}
}

// Validate checks that data is valid against the definition def (such as
// "Tool" or "CallToolResult") of revision's schema.json, failing t with
// every violation otherwise. It fails t if the revision has no such
// definition, and when the schemas are missing: the test must have called
// Require, or Available and got true, first.
func Validate(t testing.TB, revision, def string, data []byte) {
	t.Helper()
	r := load(t, revision)
	if err := r.validate(def, data); err != nil {
		t.Errorf("spectest: %s %s: %v\ndata: %s", revision, def, err, data)
	}
}

// Has reports whether revision's schema defines def. Like Validate, it
// needs Require (or Available) first.
func Has(t testing.TB, revision, def string) bool {
	t.Helper()
	r := load(t, revision)
	_, ok := r.defs[def]
	return ok
}

// ValidateMessage checks that data is a valid JSON-RPC message of revision:
// it must match the revision's JSONRPCMessage union and, when it is a
// request or notification whose method the schema defines (such as
// "tools/call"), that method's definition too. Like Validate, it needs
// Require (or Available) first.
func ValidateMessage(t testing.TB, revision string, data []byte) {
	t.Helper()
	r := load(t, revision)
	if err := r.validate("JSONRPCMessage", data); err != nil {
		t.Errorf("spectest: %s JSONRPCMessage: %v\ndata: %s", revision, err, data)
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return // reported above
	}
	obj, _ := v.(map[string]any)
	method, _ := obj["method"].(string)
	if method == "" {
		return
	}
	def, ok := r.methods[method]
	if !ok {
		return
	}
	if err := r.validate(def, data); err != nil {
		t.Errorf("spectest: %s %s: %v\ndata: %s", revision, def, err, data)
	}
}

// revision is one loaded schema.json.
type revision struct {
	url     string            // resource URL of schema.json
	prefix  string            // "#/$defs/" or "#/definitions/"
	defs    map[string]any    // definition name -> schema
	methods map[string]string // method -> definition of its request or notification

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

var (
	mu        sync.Mutex
	revisions = map[string]*revision{}
	loadErr   = map[string]error{}
)

func load(t testing.TB, rev string) *revision {
	t.Helper()
	dir, err := specDir()
	if err != nil {
		// Skipping here, in the middle of a test, would leave behind
		// whatever the test had started: Require must come first.
		t.Fatalf("spectest: %v; call spectest.Require(t) or spectest.Available(t) at the top of the test, before it starts anything", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if r, ok := revisions[rev]; ok {
		return r
	}
	if err, ok := loadErr[rev]; ok {
		t.Fatalf("spectest: %v", err)
	}
	r, err := loadRevision(dir, rev)
	if err != nil {
		loadErr[rev] = err
		t.Fatalf("spectest: %v", err)
	}
	revisions[rev] = r
	return r
}

func loadRevision(dir, rev string) (*revision, error) {
	path := filepath.Join(dir, "schema", rev, "schema.json")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("revision %s: %w", rev, err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	r := &revision{
		url:      "file://" + filepath.ToSlash(path),
		methods:  map[string]string{},
		compiled: map[string]*jsonschema.Schema{},
	}
	// Draft-07 schemas (up to 2025-06-18) keep definitions under
	// "definitions", 2020-12 ones (since 2025-11-25) under "$defs".
	if defs, ok := root["$defs"].(map[string]any); ok {
		r.prefix, r.defs = "#/$defs/", defs
	} else if defs, ok := root["definitions"].(map[string]any); ok {
		r.prefix, r.defs = "#/definitions/", defs
	} else {
		return nil, fmt.Errorf("%s: no definitions", path)
	}
	for name, d := range r.defs {
		if m := methodConst(d); m != "" {
			if old, dup := r.methods[m]; !dup || name < old {
				r.methods[m] = name
			}
		}
	}
	r.compiler = jsonschema.NewCompiler()
	r.compiler.AssertFormat()
	if err := r.compiler.AddResource(r.url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// methodConst returns the constant method of a request or notification definition.
func methodConst(def any) string {
	d, _ := def.(map[string]any)
	props, _ := d["properties"].(map[string]any)
	method, _ := props["method"].(map[string]any)
	c, _ := method["const"].(string)
	return c
}

func (r *revision) validate(def string, data []byte) error {
	if _, ok := r.defs[def]; !ok {
		return fmt.Errorf("no definition %q in this revision", def)
	}
	r.mu.Lock()
	sch, ok := r.compiled[def]
	if !ok {
		var err error
		sch, err = r.compiler.Compile(r.url + r.prefix + def)
		if err != nil {
			r.mu.Unlock()
			return fmt.Errorf("compiling: %w", err)
		}
		r.compiled[def] = sch
	}
	r.mu.Unlock()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return sch.Validate(v)
}
