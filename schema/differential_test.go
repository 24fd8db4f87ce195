package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	jsonschemav6 "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastmcp-go/fastmcp/schema"
)

// TestDifferential checks, for every type of the test zoo, that Bind
// accepts exactly the arguments the published schema accepts, as an
// independent JSON Schema 2020-12 validator (santhosh-tekuri/jsonschema,
// formats asserted) judges them. The instances are derived from each schema
// and a valid baseline: every property (at every depth the baseline
// reaches) is left out, sent as null, as the zero value of every JSON type,
// as each wrong type, at each bound and one past it, as each enum and const
// value and a value outside them, at each length bound, as format samples,
// and with an unknown member beside it. The generation is deterministic.
//
// The verdicts must agree except where a documented difference applies
// (the package doc, "Known differences", and docs/tools.md list them):
// each disagreement must match an entry of diffExceptions, and each entry
// must be needed.
func TestDifferential(t *testing.T) {
	t.Parallel()
	used := make([]int, len(diffExceptions))
	total, agreed := 0, 0
	for _, c := range diffZoo {
		ty, err := schema.For(c.typ, c.opts)
		if err != nil {
			t.Fatalf("%s: For: %v", c.name, err)
		}
		sch := compiles(t, ty.Schema())
		if _, err := ty.Bind([]byte(c.valid)); err != nil || !schemaAccepts(t, sch, []byte(c.valid)) {
			t.Fatalf("%s: the baseline %s must be valid: Bind: %v; schema accepts: %v", c.name, c.valid, err, schemaAccepts(t, sch, []byte(c.valid)))
		}
		g, docs := zooInstances(t, ty.Schema(), c.valid)
		for _, d := range docs {
			doc, v := d.doc, d.v
			total++
			_, berr := ty.Bind(doc)
			bindOK := berr == nil
			schemaOK := schemaAccepts(t, sch, doc)
			if bindOK == schemaOK {
				agreed++
				continue
			}
			d := disagreement{typ: c.name, path: pathString(v.path), value: v, bindOK: bindOK, propSchema: g.schemaAt(v.path)}
			if i := slices.IndexFunc(diffExceptions, func(e diffException) bool { return e.match(d) }); i >= 0 {
				used[i]++
				continue
			}
			t.Errorf("%s: %s: Bind accepts: %v (%v), schema accepts: %v\n  property schema: %s", c.name, doc, bindOK, berr, schemaOK, d.propSchema)
		}
	}
	for i, n := range used {
		if n == 0 {
			t.Errorf("exception %q matched nothing: remove it (or the zoo lost the case)", diffExceptions[i].name)
		}
	}
	t.Logf("%d instances, %d judged alike, %d by documented exceptions", total, agreed, total-agreed)
	for i, n := range used {
		t.Logf("%5d  %s", n, diffExceptions[i].name)
	}
	if total < 1000 {
		t.Errorf("only %d instances: the generator lost its reach", total)
	}
}

// zooDoc is one generated instance and the variant it came from.
type zooDoc struct {
	doc []byte
	v   variant
}

// zooInstances derives the instances of the differential tests from a
// schema and a valid baseline, each once, in a fixed order.
func zooInstances(t *testing.T, schemaJSON []byte, valid string) (*generator, []zooDoc) {
	t.Helper()
	root := parseJSON(t, schemaJSON)
	base := parseJSON(t, []byte(valid))
	g := &generator{root: root.(map[string]any)}
	g.walk(root.(map[string]any), base, nil, 0)
	seen := map[string]bool{}
	var out []zooDoc
	for _, v := range append(g.out, variant{}) {
		doc, err := json.Marshal(applyVariant(t, base, v))
		if err != nil {
			t.Fatal(err)
		}
		if !seen[string(doc)] {
			seen[string(doc)] = true
			out = append(out, zooDoc{doc, v})
		}
	}
	return g, out
}

// diffZoo is the test zoo, each type with arguments both judge valid.
var diffZoo = []struct {
	name  string
	typ   reflect.Type
	opts  schema.Options
	valid string
}{
	{"add", reflect.TypeFor[AddArgs](), schema.Options{}, `{"a":1,"b":2}`},
	{"add_pointer", reflect.TypeFor[*AddArgs](), schema.Options{Strict: true}, `{"a":1,"b":2}`},
	{"primitives", reflect.TypeFor[Primitives](), schema.Options{},
		`{"bool":true,"int":1,"int8":2,"int64":3,"uint":4,"uint16":5,"float32":1.5,"float64":2.5,"string":"s","bytes":"aGk=","quoted":"7","NoTag":"n"}`},
	{"nested", reflect.TypeFor[Nested](), schema.Options{},
		`{"name":"n","home":{"street":"s","city":"c","zip":"12345"},"work":{"street":"s","city":"c"},"billing":{"street":"s","city":"c"}}`},
	{"nested_strict", reflect.TypeFor[Nested](), schema.Options{Strict: true, KeepRefs: true},
		`{"name":"n","home":{"street":"s","city":"c","zip":"12345"},"work":{"street":"s","city":"c"},"billing":{"street":"s","city":"c"}}`},
	{"collections", reflect.TypeFor[Collections](), schema.Options{},
		`{"tags":["a"],"scores":[1.5],"pair":[1,2],"labels":{"k":"v"},"counts":{"ab":1},"byId":{"1":"x"},"matrix":[[1]],"groups":{"g":["x"]},"unique":["a","b"],"children":[{"street":"s","city":"c","zip":"12345"}]}`},
	{"pointers", reflect.TypeFor[Pointers](), schema.Options{}, `{"count":1,"ratio":0.5,"name":"n","limited":3,"mustSet":2}`},
	{"times", reflect.TypeFor[Times](), schema.Options{},
		`{"at":"2026-03-01T10:20:30Z","until":"2026-03-02T10:20:30Z","day":"2026-03-01","stamp":"2026-03-01T10:20:30Z","optional":"2026-03-03T00:00:00Z"}`},
	{"embedded", reflect.TypeFor[Embedded](), schema.Options{},
		`{"id":"123e4567-e89b-12d3-a456-426614174000","created":"c","source":"s","actor":"a","title":"t","named":{"id":"123e4567-e89b-12d3-a456-426614174000"}}`},
	{"enums", reflect.TypeFor[Enums](), schema.Options{}, `{"color":"red","size":"small","level":2,"both":"b","channels":["sms"]}`},
	{"defaults", reflect.TypeFor[Defaults](), schema.Options{},
		`{"query":"q","limit":5,"ratio":0.25,"exact":true,"sort":"date","fields":["a"],"weights":[3]}`},
	{"recursive", reflect.TypeFor[TreeNode](), schema.Options{}, `{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}`},
	{"recursive_inner", reflect.TypeFor[Forest](), schema.Options{},
		`{"name":"f","trees":[{"value":1,"children":[{"value":2}]}],"best":{"value":3}}`},
	{"recursive_strict", reflect.TypeFor[Person](), schema.Options{Strict: true}, `{"name":"p","friends":[{"name":"q","friends":[]}]}`},
	{"recursive_mutual", reflect.TypeFor[Dept](), schema.Options{},
		`{"name":"d","staff":[{"name":"e","dept":{"name":"d2","site":{"street":"s","city":"c"}}}],"head":{"name":"h"},"site":{"street":"s","city":"c","zip":"12345"}}`},
	{"mirrored", reflect.TypeFor[Mirrored](), schema.Options{}, mirroredValid},
	{"misc", reflect.TypeFor[Misc](), schema.Options{},
		`{"any":1,"raw":{"r":1},"value":[1],"ip":"10.0.0.1","nullable":"x","titled":"t","patterned":"ab"}`},
	{"headers", reflect.TypeFor[HeaderArgs](), schema.Options{}, `{"region":"eu","shard":2,"query":"q","target":{"tenant":"t","debug":true}}`},
	{"empty", reflect.TypeFor[Empty](), schema.Options{}, `{}`},
	{"empty_strict", reflect.TypeFor[Empty](), schema.Options{Strict: true}, `{}`},
	{"booking", reflect.TypeFor[Booking](), schema.Options{},
		`{"name":"Ann","email":"a@example.com","website":"https://example.com","code":"123e4567-e89b-12d3-a456-426614174000","date":"2026-03-01","arrival":"2026-03-01T10:00:00Z","guests":2,"budget":10,"stay":3,"smoking":true,"seat":"aisle","meal":"veg","extras":["wifi"],"tags":["view"],"nickname":"Ann"}`},
	{"elements", reflect.TypeFor[Elements](), schema.Options{},
		`{"grid":[[{"qty":1}]],"byName":{"a":{"qty":1}},"ptrs":[{"qty":1}],"inner":{"items":[{"qty":2}]},"dived":[{"qty":1}],"deep":[{"items":[{"qty":1}]}]}`},
	{"search", reflect.TypeFor[SearchArgs](), schema.Options{}, `{"query":"go","limit":5,"sort":"new","tags":["go"],"page":{"size":10}}`},
	{"issue", reflect.TypeFor[IssueArgs](), schema.Options{}, `{"limit":3,"mode":"fast","kind":"a"}`},
	{"pair", reflect.TypeFor[Pair](), schema.Options{Strict: true}, `{"a":1,"b":2}`},
	{"many", reflect.TypeFor[Many](), schema.Options{}, `{"tags":["a"]}`},
	{"holder", reflect.TypeFor[Holder](), schema.Options{}, `{"items":[{"qty":1}]}`},
	{"login", reflect.TypeFor[Login](), schema.Options{}, `{"name":"n","admin":true}`},
	{"tagged", reflect.TypeFor[Tagged](), schema.Options{},
		`{"email":"a@example.com","step":10,"ids":[1,2],"score":0.5,"level":3,"code":"ab","sizes":[2],"hits":"12","ratio":"0.5","small":[1]}`},
}

// Tagged states its constraints with jsonschema tags (checked by the scan
// or, for format and multipleOf, against the whole schema), mixed with
// validate rules under omitempty, and numbers sent as strings.
type Tagged struct {
	Email string   `json:"email,omitempty" jsonschema:"format=email"`
	Step  int      `json:"step,omitempty" jsonschema:"multipleOf=5"`
	IDs   []int    `json:"ids,omitempty" jsonschema:"uniqueItems=true,minItems=1,maxItems=3"`
	Score float64  `json:"score,omitempty" jsonschema:"exclusiveMinimum=0,maximum=1"`
	Level int      `json:"level,omitempty" jsonschema:"minimum=1" validate:"omitempty,max=5"`
	Code  string   `json:"code,omitempty" jsonschema:"pattern=^[a-z]+$" validate:"omitempty,len=2"`
	Sizes []uint16 `json:"sizes,omitempty" validate:"omitempty,dive,omitempty,gte=2"`
	Hits  int32    `json:"hits,omitempty,string"`
	Ratio float32  `json:"ratio,omitempty,string"`
	Small []int16  `json:"small,omitempty"`
}

const mirroredValid = `{"required":"r","reqInt":1,"reqBool":true,"minMax":"ab","len":"abc","intRange":0,"exclusive":0.5,` +
	`"strGt":"abc","listSize":[1],"mapSize":{"a":true},"eq":"yes","ne":1,"email":"a@example.com","url":"https://example.com",` +
	`"uri":"https://example.com/x","uuid":"123e4567-e89b-12d3-a456-426614174000","ipv4":"10.0.0.1","ipv6":"::1","ip":"10.0.0.1",` +
	`"host":"example.com","alpha":"abc","alphaNum":"abc1","numeric":"12","lower":"abc","upper":"ABC","prefixed":"v1.a+b(x)",` +
	`"unique":["a@example.com"],"nested":[["A"]],"or":"a@example.com","crossField":"other","unmirrored":"DE","mapKeys":{"x-a":"v"}}`

// SearchArgs is the shape issue 12 reported: an optional, defaulted,
// bounded number and an optional enum, where a value that is sent (0, "")
// must satisfy what the schema states.
type SearchArgs struct {
	Query string   `json:"query" validate:"min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=50"`
	Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=new old"`
	Kind  string   `json:"kind,omitempty" jsonschema:"enum=doc,enum=code"`
	Tags  []string `json:"tags,omitempty" validate:"omitempty,max=3,dive,omitempty,min=2"`
	Page  Page     `json:"page,omitzero" validate:"omitzero"`
	Ratio *float64 `json:"ratio,omitempty" validate:"omitzero,gt=0"`
}

// Page is a struct the validator skips whole under omitzero when it is
// zero.
type Page struct {
	Size int `json:"size" validate:"gte=1"`
}

// disagreement is one instance judged differently.
type disagreement struct {
	typ        string
	path       string
	value      variant
	bindOK     bool
	propSchema map[string]any
}

// diffException is a documented difference between Bind and the schema.
type diffException struct {
	name  string
	match func(d disagreement) bool
}

// diffExceptions lists the documented differences (keep in step with the
// package doc's "Known differences" and docs/tools.md). Each matches only
// the disagreements it explains.
var diffExceptions = []diffException{
	{"an optional member sent as null counts as absent: Bind accepts it, the schema lists no null", func(d disagreement) bool {
		return d.bindOK && !d.value.absent && d.value.val == nil
	}},
	{"JSON Schema counts 1.0 as an integer; the decoder does not", func(d disagreement) bool {
		n, ok := d.value.val.(json.Number)
		return !d.bindOK && ok && d.propSchema["type"] == "integer" && strings.ContainsAny(string(n), ".eE")
	}},
	{"validator rules with no schema equivalent: a|b alternatives, cross-field rules, unmirrored rules (iso3166_1_alpha2)", func(d disagreement) bool {
		return !d.bindOK && d.typ == "mirrored" && (d.path == "or" || d.path == "crossField" || d.path == "unmirrored")
	}},
	{"format checks are the validator's (Go's parsers): validate:\"uri\" takes a path, format uri does not", func(d disagreement) bool {
		return d.bindOK && d.typ == "mirrored" && d.path == "uri" && d.value.val == "/relative"
	}},
	{"a type with its own UnmarshalText (net.IP) decides which strings it takes; the schema says string", func(d disagreement) bool {
		return !d.bindOK && d.typ == "misc" && d.path == "ip"
	}},
	{"numbers outside the range of a 64-bit integer or a float32 field are refused by the decoder; the schema states no range there", func(d disagreement) bool {
		n, ok := d.value.val.(json.Number)
		if d.bindOK || !ok {
			return false
		}
		f, _ := new(big.Float).SetString(string(n))
		return f != nil && (f.IsInf() || f.MantExp(nil) > 63)
	}},
	{"a number sent as a string (json \",string\") is refused past the range of its Go type; its pattern states no range", func(d disagreement) bool {
		return !d.bindOK && d.typ == "tagged" && d.path == "hits" && d.value.val == "5000000000"
	}},
}

// variant is one change to the baseline: the value at path replaced by
// val, or removed.
type variant struct {
	path   []any // string member names and int indexes
	val    any
	absent bool
}

type generator struct {
	root map[string]any
	out  []variant
}

const maxDepth = 5

// resolve follows "$ref"s into the root's "$defs" (or to the root).
func (g *generator) resolve(s map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		if ref == "#" {
			s = g.root
			continue
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			return s
		}
		defs, _ := g.root["$defs"].(map[string]any)
		next, _ := defs[name].(map[string]any)
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// schemaAt returns the schema of the value at path (nil if unknown).
func (g *generator) schemaAt(p []any) map[string]any {
	s := g.resolve(g.root)
	for _, seg := range p {
		var next map[string]any
		switch seg := seg.(type) {
		case string:
			if props, ok := s["properties"].(map[string]any); ok {
				next, _ = props[seg].(map[string]any)
			}
			if next == nil {
				next, _ = s["additionalProperties"].(map[string]any)
			}
		case int:
			next, _ = s["items"].(map[string]any)
		}
		if next == nil {
			return nil
		}
		s = g.resolve(next)
	}
	return s
}

func (g *generator) add(p []any, vals ...any) {
	for _, v := range vals {
		g.out = append(g.out, variant{path: slices.Clone(p), val: v})
	}
}

// walk derives variants for the value inst of schema s at path p, and for
// everything inside it.
func (g *generator) walk(s map[string]any, inst any, p []any, depth int) {
	s = g.resolve(s)
	if depth > maxDepth {
		return
	}
	switch inst := inst.(type) {
	case map[string]any:
		// An unknown member beside the others.
		g.add(append(slices.Clone(p), "zzUnknown"), json.Number("1"))
		props, _ := s["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			sub, _ := props[name].(map[string]any)
			q := append(slices.Clone(p), name)
			cur, has := inst[name]
			if has {
				g.out = append(g.out, variant{path: q, absent: true})
			}
			g.add(q, g.values(sub, cur)...)
			if has {
				g.walk(sub, cur, q, depth+1)
			}
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			for _, k := range sortedKeys(inst) {
				q := append(slices.Clone(p), k)
				g.add(q, g.values(ap, inst[k])...)
				g.walk(ap, inst[k], q, depth+1)
				break // one member is enough
			}
			var sample any
			for _, k := range sortedKeys(inst) {
				sample = inst[k]
				break
			}
			for _, k := range []string{"", "a1", "ab", "x-b", "7"} {
				g.add(append(slices.Clone(p), k), sample)
			}
		}
	case []any:
		items, _ := s["items"].(map[string]any)
		if items == nil || len(inst) == 0 {
			return
		}
		q := append(slices.Clone(p), 0)
		g.add(q, g.values(items, inst[0])...)
		g.walk(items, inst[0], q, depth+1)
	}
}

// values derives values for schema s, whose baseline value is cur (nil if
// absent).
func (g *generator) values(s map[string]any, cur any) []any {
	s = g.resolve(s)
	// The zero value of every JSON type, and wrong types.
	out := []any{nil, json.Number("0"), "", false, true, []any{}, map[string]any{},
		json.Number("1"), json.Number("-1"), json.Number("1.5"), json.Number("1.0"), "x", "0"}
	if cur != nil {
		out = append(out, cur)
	}
	collect := func(s map[string]any) {
		if c, ok := s["const"]; ok {
			out = append(out, c)
		}
		if d, ok := s["default"]; ok {
			out = append(out, d)
		}
		if e, ok := s["enum"].([]any); ok {
			out = append(out, e...)
			out = append(out, "zz", json.Number("99"))
		}
		if n, ok := s["not"].(map[string]any); ok {
			if c, ok := n["const"]; ok {
				out = append(out, c)
			}
		}
		switch s["type"] {
		case "integer", "number":
			// Past the range of narrower Go types, of 64 bits, of float32.
			out = append(out, json.Number("300"), json.Number("-129"), json.Number("70000"), json.Number("5000000000"),
				json.Number("-5000000000"), json.Number("18446744073709551616"), json.Number("1e39"))
		}
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			if b, ok := s[k].(json.Number); ok {
				out = append(out, around(b)...)
			}
		}
		for _, k := range []string{"minLength", "maxLength"} {
			if b, ok := s[k].(json.Number); ok {
				n, _ := strconv.Atoi(string(b))
				for _, l := range []int{n - 1, n, n + 1} {
					if l >= 0 {
						out = append(out, lengthLike(cur, l))
					}
				}
			}
		}
		if f, ok := s["format"].(string); ok {
			out = append(out, formatSamples[f]...)
		}
		if _, ok := s["pattern"]; ok {
			out = append(out, "abc", "ABC", "123", "a1", "x-y", "v1.a+b(x)", "-1", "1.5", "1e3", "007", "5000000000")
		}
	}
	collect(s)
	for _, k := range []string{"allOf", "anyOf"} {
		if list, ok := s[k].([]any); ok {
			for _, sub := range list {
				if m, ok := sub.(map[string]any); ok {
					collect(m)
				}
			}
		}
	}
	// Arrays: sizes around the bounds, duplicates, null and varied items.
	if arr, ok := cur.([]any); ok && len(arr) > 0 {
		e := arr[0]
		out = append(out, []any{e, e}, []any{nil}, repeat(e, 4))
		for _, k := range []string{"minItems", "maxItems"} {
			if b, ok := s[k].(json.Number); ok {
				n, _ := strconv.Atoi(string(b))
				for _, l := range []int{n - 1, n, n + 1} {
					if l >= 0 {
						out = append(out, repeatDistinct(e, l))
					}
				}
			}
		}
	}
	if obj, ok := cur.(map[string]any); ok {
		out = append(out, map[string]any{"zz": nil})
		for _, k := range []string{"minProperties", "maxProperties"} {
			if b, ok := s[k].(json.Number); ok {
				n, _ := strconv.Atoi(string(b))
				for _, l := range []int{n - 1, n, n + 1} {
					if l >= 0 {
						out = append(out, objectOfSize(obj, l))
					}
				}
			}
		}
	}
	return out
}

var formatSamples = map[string][]any{
	"email":     {"a@example.com", "a@", "x"},
	"uri":       {"https://example.com/x", "mailto:a@example.com", "/relative", "no scheme"},
	"uuid":      {"123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"},
	"ipv4":      {"10.0.0.1", "256.1.1.1", "::1"},
	"ipv6":      {"::1", "fe80::1", "10.0.0.1"},
	"hostname":  {"example.com", "a-b", "-a.com", "1example.com"},
	"date-time": {"2026-03-01T10:20:30Z", "2026-03-01T10:20:30+02:00", "2026-03-01", "2026-13-01T10:20:30Z"},
	"date":      {"2026-03-01", "2026-02-30", "2026-03-01T00:00:00Z"},
}

// around returns numbers near bound b: b-1, b-0.5, b, b+0.5, b+1.
func around(b json.Number) []any {
	r, ok := new(big.Rat).SetString(string(b))
	if !ok {
		return nil
	}
	var out []any
	for _, d := range []string{"-1", "-1/2", "0", "1/2", "1"} {
		dr, _ := new(big.Rat).SetString(d)
		x := new(big.Rat).Add(r, dr)
		if x.IsInt() {
			out = append(out, json.Number(x.Num().String()))
		} else {
			out = append(out, json.Number(x.FloatString(3)))
		}
	}
	return out
}

// lengthLike returns a string of n characters, made from cur (a string)
// when it has some, so that it keeps cur's pattern where it can.
func lengthLike(cur any, n int) string {
	s, _ := cur.(string)
	if s == "" {
		s = "a"
	}
	r := []rune(s)
	for len(r) < n {
		r = append(r, r[len(r)-1])
	}
	return string(r[:n])
}

func repeat(e any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = e
	}
	return out
}

// repeatDistinct returns n items like e, distinct where e is a string or
// number (so uniqueItems does not decide the verdict).
func repeatDistinct(e any, n int) []any {
	out := make([]any, n)
	for i := range out {
		switch e := e.(type) {
		case string:
			out[i] = e + strings.Repeat(e[len(e)-1:], i)
		case json.Number:
			out[i] = json.Number(strconv.Itoa(i + 1))
		default:
			out[i] = e
		}
	}
	return out
}

func objectOfSize(obj map[string]any, n int) map[string]any {
	var sample any
	for _, k := range sortedKeys(obj) {
		sample = obj[k]
		break
	}
	out := map[string]any{}
	for i := range n {
		out["k"+strconv.Itoa(i)] = sample
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// applyVariant returns a copy of base with v applied.
func applyVariant(t *testing.T, base any, v variant) any {
	t.Helper()
	cp := deepCopy(base)
	if len(v.path) == 0 {
		return v.val
	}
	parent := cp
	for _, seg := range v.path[:len(v.path)-1] {
		switch seg := seg.(type) {
		case string:
			parent = parent.(map[string]any)[seg]
		case int:
			parent = parent.([]any)[seg]
		}
	}
	switch last := v.path[len(v.path)-1].(type) {
	case string:
		m := parent.(map[string]any)
		if v.absent {
			delete(m, last)
		} else {
			m[last] = v.val
		}
	case int:
		parent.([]any)[last] = v.val
	}
	return cp
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = deepCopy(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = deepCopy(x)
		}
		return out
	}
	return v
}

func pathString(p []any) string {
	var b strings.Builder
	for i, seg := range p {
		switch seg := seg.(type) {
		case string:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
		case int:
			fmt.Fprintf(&b, "[%d]", seg)
		}
	}
	return b.String()
}

func parseJSON(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschemav6.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}
