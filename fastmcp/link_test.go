package fastmcp_test

import (
	"bufio"
	"bytes"
	"debug/elf"
	"debug/gosym"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// A feature is optional code that a server pays for only when it uses it:
// functions of the listed packages, or of the listed files of package
// fastmcp (the option or registration that uses a feature lives in files of
// its own; its runtime is what must not be linked without it).
type feature struct {
	name  string
	pkgs  []string // import paths
	files []string // file name prefixes in package fastmcp
}

var optionalFeatures = []feature{
	{name: "auth", pkgs: []string{"github.com/fastmcp-go/fastmcp/auth", "github.com/fastmcp-go/fastmcp/internal/oauthmeta"}, files: []string{"auth.go"}},
	{name: "go-jose", pkgs: []string{"github.com/go-jose/go-jose/v4"}},
	{name: "oauthclient", pkgs: []string{"github.com/fastmcp-go/fastmcp/oauthclient"}},
	{name: "x/oauth2", pkgs: []string{"golang.org/x/oauth2"}},
	{name: "yaml", pkgs: []string{"go.yaml.in/yaml/v4"}},
	{name: "mimetype", pkgs: []string{"github.com/gabriel-vasile/mimetype"}},
	{name: "apps", pkgs: []string{"github.com/fastmcp-go/fastmcp/apps", "github.com/fastmcp-go/fastmcp/internal/appswire"}, files: []string{"apps.go"}},
	{name: "pubsub", pkgs: []string{"github.com/fastmcp-go/fastmcp/pubsub"}, files: []string{"bus.go"}},
	// skills lives in its own package; the file prefix keeps it from
	// creeping back into package fastmcp.
	{name: "skills", pkgs: []string{"github.com/fastmcp-go/fastmcp/skills"}, files: []string{"skill"}},
	// The client lives in package client, the proxy in package proxy;
	// package fastmcp imports neither (the file prefixes keep them from
	// creeping back into package fastmcp).
	{name: "client", pkgs: []string{"github.com/fastmcp-go/fastmcp/client"}, files: []string{"client"}},
	{name: "proxy", pkgs: []string{"github.com/fastmcp-go/fastmcp/proxy"}, files: []string{"proxy", "serverlink"}},
	// The task runtime lives in internal/taskrun; the file prefix keeps it
	// from creeping back into package fastmcp (task*.go holds the TaskSupport and
	// Tasks options and the adapter the TaskSupport option installs).
	{name: "tasks", pkgs: []string{"github.com/fastmcp-go/fastmcp/internal/taskrun"}, files: []string{"task"}},
	// The full JSON Schema engine: its package init compiles five drafts'
	// metaschemas. Generated schemas are checked by package schema's own
	// rule list; hand-written ones (InputSchema) need import _
	// "github.com/fastmcp-go/fastmcp/schema/jsonvalidate".
	{name: "santhosh", pkgs: []string{"github.com/santhosh-tekuri/jsonschema/v6", "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"}},
}

// What a minimal server (testdata/minimal: New, one Tool with validate tags,
// ServeStdio) still links, and why. The test fails when something not listed
// here is linked, and when something listed is no longer linked: the lists
// only shrink, and stay true.
var (
	// The default build: validator/v10's validateFn calls
	// reflect.Value.MethodByName, so the linker keeps every exported method
	// of every reachable type, and all code those methods reach.
	stillLinkedDefault = map[string]string{
		"yaml":     "package init: invopop/jsonschema imports pb33f/ordered-map/v2, which imports it (OrderedMap's YAML methods); package fastmcp does not",
		"mimetype": "imported by validator/v10 (its image rule)",
	}
	// -tags validator_novalidatefn: no MethodByName; what is left is linked
	// through real references (or package init).
	stillLinkedNoValidateFn = map[string]string{
		"yaml":     "package init: invopop/jsonschema imports pb33f/ordered-map/v2, which imports it (OrderedMap's YAML methods); package fastmcp does not",
		"mimetype": "imported by validator/v10 (its image rule: DetectReader)",
	}
)

// TestMinimalServerLinks builds testdata/minimal twice, by default and with
// -tags validator_novalidatefn, and checks which optional features each binary
// links against the lists above. On a mismatch it names, from the linker's
// -dumpdep trace, the first reference that pulled the feature in
// (FASTMCP_LINK_EXPLAIN=1 names it for every linked feature).
func TestMinimalServerLinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the ELF symbol table")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	t.Parallel()
	for _, build := range []struct {
		name  string
		tags  string
		still map[string]string
	}{
		{"default", "", stillLinkedDefault},
		{"validator_novalidatefn", "validator_novalidatefn", stillLinkedNoValidateFn},
	} {
		t.Run(build.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "minimal")
			args := []string{"build", "-o", bin}
			if build.tags != "" {
				args = append(args, "-tags", build.tags)
			}
			runGo(t, goTool, append(args, "./testdata/minimal")...)
			linked, owner, size := linkedFeatures(t, bin)
			t.Logf("%s build: %d bytes; links %v", build.name, size, sortedKeys(linked))
			var unexpected []string
			for _, f := range optionalFeatures {
				_, want := build.still[f.name]
				sym, got := linked[f.name]
				switch {
				case got && !want:
					unexpected = append(unexpected, f.name)
					t.Errorf("a minimal server links %s (%s)", f.name, sym)
				case want && !got:
					t.Errorf("a minimal server no longer links %s: remove it from the list in link_test.go", f.name)
				}
			}
			if os.Getenv("FASTMCP_LINK_EXPLAIN") != "" {
				unexpected = sortedKeys(linked) // explain everything linked
			}
			if len(unexpected) > 0 {
				explain(t, goTool, args, owner, unexpected)
			}
		})
	}
	for name := range stillLinkedDefault {
		if !slices.ContainsFunc(optionalFeatures, func(f feature) bool { return f.name == name }) {
			t.Errorf("stillLinkedDefault names unknown feature %q", name)
		}
	}
}

// notImported are packages a minimal server must not even import: their
// package init would run in every server, and the linker keeps whatever
// their reachable types' methods reach.
var notImported = []string{
	"github.com/fastmcp-go/fastmcp/auth",        // fastmcp.Auth takes an HTTPAuth; auth.Protect is one
	"github.com/fastmcp-go/fastmcp/oauthclient", // client.OAuth takes an HTTPAuthorizer; oauthclient.Config is one
	"github.com/go-jose/go-jose/v4",
	"golang.org/x/oauth2",
	"github.com/fastmcp-go/fastmcp/skills",
	"github.com/fastmcp-go/fastmcp/apps", // fastmcp.WithToolUI is the hook; apps.WithView, AppOnly, ModelOnly use it
	"github.com/santhosh-tekuri/jsonschema/v6",
}

// TestMinimalServerImports checks with go list -deps that testdata/minimal
// imports none of notImported, and says which package imports each.
func TestMinimalServerImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	t.Parallel()
	out := runGo(t, goTool, "list", "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./testdata/minimal")
	for _, line := range strings.Split(string(out), "\n") {
		pkg, imports, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if slices.Contains(notImported, imp) {
				t.Errorf("a minimal server imports %s (through %s)", imp, pkg)
			}
		}
	}
}

// runGo runs the go command in this package's directory with plain build
// flags: the binary checked is the one users build, not a -race one.
func runGo(t *testing.T, goTool string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(goTool, args...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return append(out, stderr.Bytes()...)
}

// linkedFeatures reads the binary's function table and returns, for each
// optional feature it links, one of its functions, and the feature of every
// such function.
func linkedFeatures(t *testing.T, bin string) (linked, owner map[string]string, size int64) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pcln := f.Section(".gopclntab")
	text := f.Section(".text")
	if pcln == nil || text == nil {
		t.Fatal("no .gopclntab or .text section")
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	linked, owner = map[string]string{}, map[string]string{}
	for i := range table.Funcs {
		fn := &table.Funcs[i]
		if name := featureOf(fn.Name, func() string {
			file, _, _ := table.PCToLine(fn.Entry)
			return file
		}); name != "" {
			owner[fn.Name] = name
			if _, ok := linked[name]; !ok {
				linked[name] = fn.Name
			}
		}
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	return linked, owner, st.Size()
}

const fastmcpPkg = "github.com/fastmcp-go/fastmcp/fastmcp"

// featureOf returns the optional feature a function belongs to, or "".
func featureOf(sym string, file func() string) string {
	pkg := symbolPackage(sym)
	for _, f := range optionalFeatures {
		for _, p := range f.pkgs {
			if pkg == p || strings.HasPrefix(pkg, p+"/") {
				return f.name
			}
		}
	}
	if pkg != fastmcpPkg {
		return ""
	}
	path := file()
	if filepath.Base(filepath.Dir(path)) != "fastmcp" {
		return "" // inlined or generic code from another package
	}
	base := filepath.Base(path)
	for _, f := range optionalFeatures {
		for _, prefix := range f.files {
			if strings.HasPrefix(base, prefix) {
				return f.name
			}
		}
	}
	return ""
}

// symbolPackage returns the import path of a function symbol such as
// "github.com/a/b.(*T).M[...]".
func symbolPackage(sym string) string {
	if i := strings.IndexAny(sym, "[("); i >= 0 {
		sym = sym[:i]
	}
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return sym
	}
	return sym[:slash+1+dot]
}

// explain rebuilds with -ldflags=-dumpdep and reports, for each feature, the
// first reachability edge that marked one of its functions.
func explain(t *testing.T, goTool string, args []string, owner map[string]string, features []string) {
	t.Helper()
	out := runGo(t, goTool, append(slices.Clone(args), "-ldflags=-dumpdep", "./testdata/minimal")...)
	found := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		from, to, ok := strings.Cut(sc.Text(), " -> ")
		if !ok {
			continue
		}
		name := owner[to]
		if name == "" || found[name] || !slices.Contains(features, name) {
			continue
		}
		found[name] = true
		t.Logf("%s is first reached by %s -> %s", name, from, to)
	}
	for _, name := range features {
		if !found[name] {
			t.Logf("%s: no edge to it in -dumpdep", name)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
