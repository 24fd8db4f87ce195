package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// generate makes the schema of the plan root: the tree describe.go makes
// from the plans, reshaped: $ref inlining, required lists, defaults,
// strictness and validate rules.
func generate(a *analyzer, root *plan, opts Options) (*object, error) {
	d := &describer{root: a.root}
	if opts.KeepRefs || a.recursive {
		d.names = defNames(a.plans)
		d.defs = map[string]*object{}
	}
	v := d.describe(root)
	if d.err != nil {
		return nil, d.err
	}
	// What a JSONSchemaExtend method added is checked by the schema itself:
	// the native checks know only the constraints tags write.
	a.schemaCheck = a.schemaCheck || d.extended
	top, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("schema: type %s: internal error: the described schema is not an object", root.t)
	}
	g := &gen{a: a, opts: opts, defs: d.defs, names: d.names}
	if d.names != nil {
		rootName := d.names[root.t]
		if def := d.defs[rootName]; def != nil {
			top = def
		}
		delete(g.defs, rootName)
		trueForEmpty(top)
		for _, def := range g.defs {
			trueForEmpty(def)
		}
		g.rootName = rootName
		g.resolveRefs(top, opts.KeepRefs)
	} else {
		trueForEmpty(top)
	}
	if err := g.process(top, root); err != nil {
		return nil, err
	}
	if len(g.keep) > 0 {
		defs := &object{}
		keys := make([]string, 0, len(g.keep))
		for k := range g.keep {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			defs.set(k, g.defs[k])
		}
		top.set("$defs", defs)
	}
	canonicalize(top)
	return top, nil
}

var defNameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_.-]+`) })

// defNames gives every named type a unique, URI-safe $defs name.
func defNames(plans map[reflect.Type]*plan) map[reflect.Type]string {
	types := make([]reflect.Type, 0, len(plans))
	for t := range plans {
		if t.Name() != "" {
			types = append(types, t)
		}
	}
	slices.SortFunc(types, func(a, b reflect.Type) int {
		if c := strings.Compare(a.Name(), b.Name()); c != 0 {
			return c
		}
		return strings.Compare(a.PkgPath(), b.PkgPath())
	})
	names := make(map[reflect.Type]string, len(types))
	used := map[string]bool{}
	for _, t := range types {
		base := strings.Trim(defNameChars().ReplaceAllString(t.Name(), "_"), "_")
		if base == "" {
			base = "T"
		}
		n := base
		for i := 2; used[n]; i++ {
			n = base + strconv.Itoa(i)
		}
		used[n] = true
		names[t] = n
	}
	return names
}

type gen struct {
	a        *analyzer
	opts     Options
	defs     map[string]*object // described $defs, by name
	names    map[reflect.Type]string
	rootName string
	cyclic   map[string]bool
	keep     map[string]bool // $defs kept in the output
	done     map[string]bool // $defs already processed
}

const defsPrefix = "#/$defs/"

func refName(s *object) (string, bool) {
	ref := s.getString("$ref")
	if !strings.HasPrefix(ref, defsPrefix) {
		return "", false
	}
	return strings.TrimPrefix(ref, defsPrefix), true
}

// resolveRefs rewrites $ref uses: refs to the root become "#"; unless
// keepAll, refs to definitions that are not part of a cycle are replaced by
// a copy of the definition (many hosts mishandle $ref).
func (g *gen) resolveRefs(top *object, keepAll bool) {
	g.cyclic = g.findCycles(top)
	g.keep = map[string]bool{}
	g.rewriteRefs(top, keepAll, 0)
}

// findCycles returns the definitions (top under g.rootName among them) that
// take part in a cycle of $refs.
func (g *gen) findCycles(top *object) map[string]bool {
	edges := map[string][]string{}
	var collect func(v any, from string)
	collect = func(v any, from string) {
		s, ok := v.(*object)
		if !ok {
			return
		}
		if n, ok := refName(s); ok {
			edges[from] = append(edges[from], n)
		}
		walkSubschemas(s, func(sub any, _, _ string, _ int) { collect(sub, from) })
	}
	all := map[string]*object{g.rootName: top}
	for n, d := range g.defs {
		all[n] = d
	}
	for n, d := range all {
		collect(d, n)
	}
	cyclic := map[string]bool{}
	for n := range all {
		seen := map[string]bool{}
		stack := slices.Clone(edges[n])
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == n {
				cyclic[n] = true
				break
			}
			if !seen[x] {
				seen[x] = true
				stack = append(stack, edges[x]...)
			}
		}
	}
	return cyclic
}

// rewriteRefs rewrites the $refs in v (see resolveRefs) and returns v, or
// the copy of a definition that replaces it.
func (g *gen) rewriteRefs(v any, keepAll bool, depth int) any {
	s, ok := v.(*object)
	if !ok {
		return v
	}
	if n, ok := refName(s); ok {
		switch {
		case n == g.rootName:
			s.set("$ref", "#")
		case keepAll || g.cyclic[n]:
			if !g.keep[n] {
				g.keep[n] = true
				if d := g.defs[n]; d != nil {
					g.rewriteRefs(d, keepAll, 0)
				}
			}
		default:
			if d := g.defs[n]; d != nil {
				c := cloneTree(d).(*object)
				c = g.rewriteRefs(c, keepAll, depth+1).(*object)
				// Keep keywords written beside the $ref (description, ...).
				s.del("$ref")
				for _, m := range s.members {
					c.set(m.key, m.val)
				}
				return c
			}
		}
	}
	for i := range s.members {
		m := &s.members[i]
		switch kind := keywordKind(m.key); {
		case kind == subschemaMap:
			if obj, ok := m.val.(*object); ok {
				for j := range obj.members {
					obj.members[j].val = g.rewriteRefs(obj.members[j].val, keepAll, depth)
				}
			}
		case kind == subschemaList:
			if arr, ok := m.val.([]any); ok {
				for j := range arr {
					arr[j] = g.rewriteRefs(arr[j], keepAll, depth)
				}
			}
		case kind == subschemaValue:
			m.val = g.rewriteRefs(m.val, keepAll, depth)
		}
	}
	return s
}

// deref returns the schema object behind a $ref (or s itself), and
// whether it is a shared definition.
func (g *gen) deref(s *object) (*object, string) {
	if s == nil {
		return nil, ""
	}
	if n, ok := refName(s); ok {
		return g.defs[n], n
	}
	return s, ""
}

// nonNull looks through the oneOf [X, {"type":"null"}] wrapper that
// jsonschema:"nullable" produces.
func nonNull(s *object) *object {
	one, ok := s.get("oneOf")
	if !ok {
		return s
	}
	list, _ := one.([]any)
	if len(list) == 2 {
		if n, ok := list[1].(*object); ok && n.getString("type") == "null" {
			if x, ok := list[0].(*object); ok {
				return x
			}
		}
	}
	return s
}

// process walks a schema node describing a value of plan p and applies the
// per-struct settings: required, defaults, strictness, validate rules.
func (g *gen) process(s *object, p *plan) error {
	if s == nil || p == nil {
		return nil
	}
	if s.getString("$ref") == "#" {
		return nil
	}
	if target, name := g.deref(s); name != "" {
		if g.done == nil {
			g.done = map[string]bool{}
		}
		if g.done[name] {
			return nil
		}
		g.done[name] = true
		return g.process(target, p)
	}
	switch p.kind {
	case planArray:
		return g.process(s.getObject("items"), p.elem)
	case planMap:
		if pp := s.getObject("patternProperties"); pp != nil { // integer keys
			for _, m := range pp.members {
				if o, ok := m.val.(*object); ok {
					if err := g.process(o, p.elem); err != nil {
						return err
					}
				}
			}
		}
		return g.process(s.getObject("additionalProperties"), p.elem)
	case planStruct:
		return g.processStruct(s, p)
	default:
		describeDecoding(s, p)
		return nil
	}
}

// processStruct is process for a struct: each property, then required and
// additionalProperties.
func (g *gen) processStruct(s *object, p *plan) error {
	props := s.getObject("properties")
	if props == nil {
		props = &object{}
		s.set("properties", props)
	}
	if err := sameFields(props, p); err != nil {
		return err
	}
	required := make([]any, 0, len(p.fields))
	for _, f := range p.fields {
		req, err := g.processField(props, p, f)
		if err != nil {
			return err
		}
		if req {
			required = append(required, f.name)
		}
	}
	if len(required) > 0 {
		s.set("required", required)
	} else {
		s.del("required")
	}
	if p.strict {
		s.set("additionalProperties", false)
	} else {
		s.del("additionalProperties")
	}
	return nil
}

// sameFields checks that the properties are exactly the decoder's fields
// of p (a oneof_ref tag on a field of a named struct type leaves none).
func sameFields(props *object, p *plan) error {
	same := len(props.members) == len(p.fields)
	for i := 0; same && i < len(p.fields); i++ {
		same = props.members[i].key == p.fields[i].name
	}
	if same {
		return nil
	}
	var got, want []string
	for _, m := range props.members {
		got = append(got, m.key)
	}
	for _, f := range p.fields {
		want = append(want, f.name)
	}
	return fmt.Errorf("schema: type %s: the schema's properties %q differ from the decoder's fields %q: check embedded structs and json tags", p.t, got, want)
}

// processField applies the settings of field f of struct p to its
// property in props: nullability of output, default, tag checks, validate
// rules, then its value's plan. It reports whether the property is
// required.
func (g *gen) processField(props *object, p *plan, f *fieldPlan) (bool, error) {
	v, _ := props.get(f.name)
	ps, ok := v.(*object)
	if !ok {
		ps = &object{} // `true`: any value
		props.set(f.name, ps)
	}
	req := f.required
	if g.opts.Output {
		// What the encoder writes: every member without omitempty or
		// omitzero, and null for nil pointers and interfaces.
		req = !slices.Contains(f.jsonOpts, "omitempty") && !slices.Contains(f.jsonOpts, "omitzero")
		if req && (f.ptr || f.plan.kind == planAny) {
			props.set(f.name, allowNull(ps))
		}
	}
	if f.def != nil {
		nonNull(ps).set("default", cloneTree(f.defTree))
	} else {
		nonNull(ps).del("default")
	}
	target := nonNull(ps)
	tc, ok := buildTagChecks(f, target)
	f.checks = tc
	g.a.schemaCheck = g.a.schemaCheck || !ok
	if !g.opts.Output {
		if err := checkAgreement(target, f); err != nil {
			return false, fmt.Errorf("schema: type %s: field %s.%s: %v", g.a.root, p.t, f.goName, err)
		}
		if err := mirror(target, f.typ, f.rules, f.quoted); err != nil {
			return false, fmt.Errorf("schema: type %s: field %s: validate tag: %v", p.t, f.goName, err)
		}
	}
	if err := g.process(target, f.plan); err != nil {
		return false, err
	}
	if f.quoted {
		// A number inside a string: the decoder takes only a JSON
		// number there.
		addKeyword(target, "pattern", quotedNumberPattern(f.plan))
	}
	if len(ps.members) == 0 {
		props.set(f.name, true)
	}
	return req, nil
}

// allowNull makes a property schema accept null as well.
func allowNull(s *object) any {
	if len(s.members) == 0 {
		return s // any value, null included
	}
	if nonNull(s) != s {
		return s // already nullable
	}
	switch t, _ := s.get("type"); t := t.(type) {
	case string:
		if _, isRef := s.get("$ref"); !isRef {
			s.set("type", []any{t, "null"})
			return s
		}
	}
	return &object{members: []member{{"anyOf", []any{s, &object{members: []member{{"type", "null"}}}}}}}
}

// Patterns of the strings the decoder accepts where a value travels as
// text: base64 (RFC 4648 with padding, as []byte decodes it) and numbers
// sent as strings (json ",string"), in JSON's number syntax.
const (
	base64Pattern      = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`
	quotedUintPattern  = `^(?:0|[1-9][0-9]*)$`
	quotedIntPattern   = `^-?(?:0|[1-9][0-9]*)$`
	quotedFloatPattern = `^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`
)

// describeDecoding adds to s, the schema of a scalar of plan p, what the
// decoder demands beyond the JSON type: the range of integer types
// narrower than 64 bits (and unsigned integers' minimum 0), and the
// base64 alphabet of []byte.
func describeDecoding(s *object, p *plan) {
	switch p.jsonType {
	case "integer":
		switch p.t.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32:
			bits := p.t.Bits()
			setBound(s, "minimum", number(strconv.FormatInt(-1<<(bits-1), 10)), true)
			setBound(s, "maximum", number(strconv.FormatInt(1<<(bits-1)-1, 10)), false)
		case reflect.Uint8, reflect.Uint16, reflect.Uint32:
			setBound(s, "minimum", "0", true)
			setBound(s, "maximum", number(strconv.FormatUint(1<<p.t.Bits()-1, 10)), false)
		case reflect.Uint, reflect.Uint64, reflect.Uintptr:
			setBound(s, "minimum", "0", true)
		}
	case "string":
		if p.t.Kind() == reflect.Slice && p.t.Elem().Kind() == reflect.Uint8 {
			if sh, _ := shapeOf(p.t); sh == shapeNormal {
				addKeyword(s, "pattern", base64Pattern)
			}
		}
	}
}

// quotedNumberPattern is the pattern of a number of plan p sent as a
// string.
func quotedNumberPattern(p *plan) string {
	switch {
	case p.jsonType == "number":
		return quotedFloatPattern
	case classOf(p.t) == classUint:
		return quotedUintPattern
	}
	return quotedIntPattern
}
