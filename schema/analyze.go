package schema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/invopop/jsonschema"
)

// This file walks a Go type the way the JSON decoder
// (github.com/go-json-experiment/json) sees it and records, per type, a plan:
// which JSON members exist, which are required, their defaults, and how to
// walk into nested values. The schema, the per-call scan and the decoder all
// agree because they are all checked against this one walk.

type planKind uint8

const (
	planOpaque planKind = iota // scalars and types with their own JSON form
	planStruct
	planArray // slices and arrays (not []byte)
	planMap
	planAny // interfaces: any JSON value
)

type plan struct {
	t        reflect.Type // never a pointer
	kind     planKind
	jsonType string // "string", "integer", "number", "boolean", "array", "object", or "" if unknown
	shape    shape

	// planStruct
	fields []*fieldPlan
	byName map[string]*fieldPlan
	strict bool

	// planArray, planMap
	elem *plan

	// validation bookkeeping (see validate.go)
	hasRules   bool // this type (or one it contains) carries validate tags
	needsExtra bool // Bind must validate elements the validator skips
}

type fieldPlan struct {
	name     string // JSON member name
	goName   string
	index    []int // reflect index path, through embedded structs
	typ      reflect.Type
	plan     *plan
	ptr      bool // the Go field is a pointer
	quoted   bool // json ",string" option: numbers travel as strings
	required bool
	nullable bool              // jsonschema:"nullable": JSON null is allowed
	def      jsontext.Value    // default, nil if none
	defTree  any               // def as a tree
	vtag     string            // validate tag
	rules    *ruleSet          // vtag parsed (shared: not to be modified)
	stags    []string          // jsonschema tag parts
	tag      reflect.StructTag // all the field's tags, for describe.go
	jsonOpts []string          // json tag options after the name
	dive     bool              // validate tag dives into elements
	extra    bool              // Bind validates this field's elements itself
	checks   *tagChecks        // constraints from the jsonschema tag, if any
	ordinal  int
	// presence is how Bind checks this member when it is present: see
	// presence.go. Nil when the validate tag has no omit modifier.
	presence *presenceRules
}

type analyzer struct {
	root   reflect.Type
	plans  map[reflect.Type]*plan
	strict bool
	err    error
	// structs lists every struct type met, for the validator preflight.
	structs []reflect.Type
	// recursive reports that some type contains itself.
	recursive bool
	// schemaCheck reports that some jsonschema-tag constraint is not
	// checked natively (see tagcheck.go): Bind checks the whole schema.
	schemaCheck bool
	onStack     []reflect.Type // the containers being analyzed, outermost first
	// path is the Go path to the value being analyzed, in segments.
	path []string
	// warnings are the fields For takes but that are likely mistakes (see
	// Type.Warnings).
	warnings []string
}

// pathText is a path of analyzer segments as text, made only when a
// message needs it.
type pathText []string

func (p pathText) String() string { return strings.Join(p, "") }

var (
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
	urlType             = reflect.TypeFor[url.URL]()
	jsontextValueType   = reflect.TypeFor[jsontext.Value]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	v2UnmarshalerType   = reflect.TypeFor[jsonv2.UnmarshalerFrom]()
	v2Unmarshaler2Type  = reflect.TypeFor[jsonv2.Unmarshaler]()
	customSchemaType    = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
)

// invopopHooks are the methods by which invopop/jsonschema's Reflector lets
// a type change its schema that the one walk of analyze does not follow
// (JSONSchemaExtend is followed: see extend in describe.go). A type that
// has one is refused rather than silently described without it.
var invopopHooks = []struct {
	iface  reflect.Type
	method string
}{
	{aliasHookType, "JSONSchemaAlias"},
	{reflect.TypeFor[interface{ JSONSchemaProperty(string) any }](), "JSONSchemaProperty"},
	{reflect.TypeFor[interface{ GetFieldDocString(string) string }](), "GetFieldDocString"},
}

var aliasHookType = reflect.TypeFor[interface{ JSONSchemaAlias() any }]()

func (a *analyzer) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("schema: type %s: "+format, append([]any{a.root}, args...)...)
	}
}

// typeShape classifies types that have their own JSON form.
type shape uint8

const (
	shapeNormal shape = iota
	shapeTime         // time.Time: RFC 3339 string
	shapeText         // encoding.TextUnmarshaler: a string
	shapeRaw          // jsontext.Value, json.RawMessage: any JSON
	shapeCustom       // has a JSONSchema() method: trusted as is
)

func shapeOf(t reflect.Type) (shape, string) {
	switch {
	case t == timeType:
		return shapeTime, ""
	case t == jsontextValueType || t == rawMessageType:
		return shapeRaw, ""
	case t.Implements(customSchemaType):
		return shapeCustom, ""
	}
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(v2UnmarshalerType) || pt.Implements(v2Unmarshaler2Type) || pt.Implements(jsonUnmarshalerType):
		return shapeNormal, "it decodes itself (UnmarshalJSON), so its JSON shape is unknown: give it a JSONSchema() *jsonschema.Schema method, or use a plain type"
	case pt.Implements(textUnmarshalerType):
		return shapeText, ""
	}
	return shapeNormal, ""
}

// analyze returns the plan for t (pointers are looked through). seg is
// the last segment of the Go path to the value, for messages: the type's
// name, a field name after a ".", "[]" or "[key]".
func (a *analyzer) analyze(t reflect.Type, seg string) *plan {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := a.plans[t]; ok {
		if slices.Contains(a.onStack, t) {
			a.recursive = true
		}
		return p
	}
	p := &plan{t: t}
	a.plans[t] = p
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		// Only these can contain themselves.
		a.onStack = append(a.onStack, t)
		defer func() { a.onStack = a.onStack[:len(a.onStack)-1] }()
	}
	a.path = append(a.path, seg)
	defer func() { a.path = a.path[:len(a.path)-1] }()
	where := pathText(a.path)
	if !a.analyzeShape(p, where) {
		a.analyzeKind(p, where)
	}
	return p
}

// analyzeShape settles the plan of a type with its own JSON form (time,
// text, raw, custom schema) or one that is refused (an unsupported invopop
// hook, time.Duration, url.URL). It reports whether p is done; if not, the
// type's kind decides (analyzeKind).
func (a *analyzer) analyzeShape(p *plan, where pathText) bool {
	t := p.t
	sh, bad := shapeOf(t)
	p.shape = sh
	if bad != "" {
		a.fail("%s has type %s: %s", where, t, bad)
		return true
	}
	if t.NumMethod() > 0 && sh != shapeCustom {
		for _, h := range invopopHooks {
			// The Reflector asks a type with its own JSON form only for an
			// alias.
			if (sh == shapeNormal || h.iface == aliasHookType) && t.Implements(h.iface) {
				a.fail("%s has type %s, whose %s method is not supported: describe the type with a JSONSchema() *jsonschema.Schema method, or with jsonschema tags on its fields", where, t, h.method)
				return true
			}
		}
	}
	switch sh {
	case shapeTime, shapeText:
		p.jsonType = "string"
		return true
	case shapeRaw:
		p.kind = planAny
		return true
	case shapeCustom:
		return true
	}
	switch t {
	case durationType:
		a.fail("%s is a time.Duration, which has no default JSON form: use an integer count of a unit (e.g. Seconds int) or a string parsed with time.ParseDuration", where)
		return true
	case urlType:
		a.fail("%s is a url.URL, which does not decode from a JSON string: use a string field with validate:\"url\"", where)
		return true
	}
	return false
}

// analyzeKind fills the plan of a type by its kind, analyzing the element
// and field types it contains.
func (a *analyzer) analyzeKind(p *plan, where pathText) {
	t := p.t
	switch t.Kind() {
	case reflect.Bool:
		p.jsonType = "boolean"
	case reflect.String:
		p.jsonType = "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.jsonType = "integer"
	case reflect.Float32, reflect.Float64:
		p.jsonType = "number"
	case reflect.Interface:
		p.kind = planAny
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			p.jsonType = "string" // base64
			return
		}
		p.kind = planArray
		p.jsonType = "array"
		p.elem = a.analyze(t.Elem(), "[]")
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			if !reflect.PointerTo(t.Key()).Implements(textUnmarshalerType) {
				a.fail("%s is a map with %s keys: JSON object keys are strings, so use string (or integer) keys", where, t.Key())
				return
			}
		}
		p.kind = planMap
		p.jsonType = "object"
		p.elem = a.analyze(t.Elem(), "[key]")
	case reflect.Struct:
		p.kind = planStruct
		p.jsonType = "object"
		p.strict = a.strict
		a.structs = append(a.structs, t)
		a.structFields(p)
	default:
		a.fail("%s has type %s, which has no JSON form: remove it or tag it json:\"-\"", where, t)
	}
}

// structFields lists the JSON members of a struct, following the decoder's
// rules (breadth-first through embedded structs, depth-first order), but
// rejecting the ambiguous cases the decoder would resolve silently.
func (a *analyzer) structFields(p *plan) {
	fields := a.collectFields(p.t)
	slices.SortStableFunc(fields, func(x, y *fieldPlan) int { return slices.Compare(x.index, y.index) })
	p.byName = make(map[string]*fieldPlan, len(fields))
	for i, f := range fields {
		if old, dup := p.byName[f.name]; dup {
			a.fail("fields %s.%s and %s.%s both use the JSON name %q: rename one with a json tag", p.t, old.goName, p.t, f.goName, f.name)
			continue
		}
		f.ordinal = i
		p.byName[f.name] = f
	}
	p.fields = fields
	for _, f := range fields {
		a.path = append(a.path, ".")
		f.plan = a.analyze(f.typ, f.name)
		a.path = a.path[:len(a.path)-1]
		if f.quoted {
			switch f.plan.jsonType {
			case "integer", "number":
			default:
				a.fail("field %s.%s has json option \"string\", which only applies to numbers: remove it", p.t, f.goName)
			}
		}
		a.fieldTags(p, f)
	}
}

// embedded is a struct whose fields are members of the struct being
// listed: the struct itself, or one embedded in it.
type embedded struct {
	t      reflect.Type
	index  []int
	prefix string // Go path of the embedded struct, "Base."
}

// fieldWalk is the state of collectFields: the structs left to read,
// breadth-first, and the members found.
type fieldWalk struct {
	queue  []embedded
	seen   []reflect.Type // the structs embedded so far
	fields []*fieldPlan
	// One allocation for the plans and indexes of the struct's own fields
	// (those of embedded structs get their own).
	batch    []fieldPlan
	topIndex []int
}

// collectFields returns the members of struct t and of the structs it
// embeds, in the order found (unsorted, duplicates included).
func (a *analyzer) collectFields(t reflect.Type) []*fieldPlan {
	var qbuf [4]embedded
	n := t.NumField()
	w := &fieldWalk{
		queue:    append(qbuf[:0], embedded{t, nil, ""}),
		seen:     []reflect.Type{t},
		fields:   make([]*fieldPlan, 0, n),
		batch:    make([]fieldPlan, 0, n),
		topIndex: make([]int, n),
	}
	for len(w.queue) > 0 {
		e := w.queue[0]
		w.queue = w.queue[1:]
		for i := range e.t.NumField() {
			a.collectField(w, e, i)
		}
	}
	return w.fields
}

// collectField adds field i of e to w: a member, an embedded struct to
// read later, or nothing (skipped, or refused with a.fail).
func (a *analyzer) collectField(w *fieldWalk, e embedded, i int) {
	sf := e.t.Field(i)
	var index []int
	if e.index == nil {
		w.topIndex[i] = i
		index = w.topIndex[i : i+1 : i+1]
	} else {
		index = append(slices.Clone(e.index), i)
	}
	tag, hasTag := sf.Tag.Lookup("json")
	if tag == "-" {
		if vt := sf.Tag.Get("validate"); vt != "" && vt != "-" {
			a.fail("field %s.%s is not decoded (json:\"-\") but has validate:%q, which Bind would enforce on the zero value: remove the rule or the json:\"-\"", e.t, sf.Name, vt)
		}
		return
	}
	if !sf.IsExported() && !sf.Anonymous {
		if hasTag {
			a.fail("unexported field %s.%s has a json tag: export it or tag it json:\"-\"", e.t, sf.Name)
		}
		return
	}
	name, opts, _ := strings.Cut(tag, ",")
	var optList []string
	if opts != "" {
		optList = strings.Split(opts, ",")
	}
	a.checkJSONOptions(e.t, sf.Name, optList)
	st := splitTag(sf.Tag.Get("jsonschema"))
	if len(st) > 0 && st[0] == "-" {
		a.fail("field %s.%s is hidden from the schema (jsonschema:\"-\") but would still be decoded from arguments: tag it json:\"-\" instead", e.t, sf.Name)
		return
	}
	if sf.Anonymous && name == "" {
		a.embed(w, e, sf, index, len(optList) > 0)
		return
	}
	if name == "" {
		name = sf.Name
		a.warnUntagged(e.t, sf.Name, tag)
	}
	var fp *fieldPlan
	if len(w.batch) < cap(w.batch) {
		w.batch = w.batch[:len(w.batch)+1]
		fp = &w.batch[len(w.batch)-1]
	} else {
		fp = new(fieldPlan)
	}
	ft := sf.Type
	*fp = fieldPlan{
		name:     name,
		goName:   e.prefix + sf.Name,
		index:    index,
		typ:      ft,
		ptr:      ft.Kind() == reflect.Pointer,
		vtag:     sf.Tag.Get("validate"),
		stags:    st,
		tag:      sf.Tag,
		jsonOpts: optList,
		quoted:   slices.Contains(optList, "string"),
	}
	w.fields = append(w.fields, fp)
}

// warnUntagged notes that field name of struct t has no json name (its
// json tag is tag, maybe empty), so its member is named like the Go field:
// a model that sends "query" for Query fills nothing. An embedded struct
// without a json name is not noted: its fields are members of the outer
// struct (and are noted themselves), and naming it would nest them.
func (a *analyzer) warnUntagged(t reflect.Type, name, tag string) {
	want := jsonNameFor(name)
	if want == name {
		return
	}
	w := fmt.Sprintf("field %s.%s has no json name, so its argument is named %q: add json:%q", t, name, name, want+tag)
	if !slices.Contains(a.warnings, w) {
		a.warnings = append(a.warnings, w)
	}
}

// jsonNameFor is the lowerCamelCase JSON name of a Go field name: Query
// is query, UserID userID, ID id, HTTPServer httpServer.
func jsonNameFor(name string) string {
	r := []rune(name)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) {
		n-- // the last capital begins the next word
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// checkJSONOptions refuses the json tag options of field t.name that the
// schema cannot describe or that would loosen name matching.
func (a *analyzer) checkJSONOptions(t reflect.Type, name string, optList []string) {
	for _, o := range optList {
		switch {
		case o == "omitempty" || o == "omitzero" || o == "string":
		case strings.HasPrefix(o, "case:"):
			a.fail("field %s.%s uses json option %q: argument names must match exactly (CVE-2026-27896); remove the option", t, name, o)
		case strings.HasPrefix(o, "format:"):
			a.fail("field %s.%s uses json option %q, which the schema cannot describe: remove it", t, name, o)
		case o == "inline" || o == "embed":
			a.fail("field %s.%s uses json option %q: embed the struct as an anonymous field without a json name instead", t, name, o)
		default:
			a.fail("field %s.%s has unknown json option %q: remove it", t, name, o)
		}
	}
}

// embed queues the struct embedded as field sf of e (at index) for
// collectFields, or refuses it: not a struct, one with its own JSON form,
// json options (hasOpts), or a struct embedded twice.
func (a *analyzer) embed(w *fieldWalk, e embedded, sf reflect.StructField, index []int, hasOpts bool) {
	inner := sf.Type
	if inner.Kind() == reflect.Pointer {
		inner = inner.Elem()
	}
	if inner.Kind() != reflect.Struct {
		a.fail("embedded field %s.%s is not a struct: give it a json name", e.t, sf.Name)
		return
	}
	if sh, _ := shapeOf(inner); sh != shapeNormal || inner == timeType {
		a.fail("embedded field %s.%s has its own JSON form: give it a json name", e.t, sf.Name)
		return
	}
	if hasOpts {
		a.fail("embedded field %s.%s has json options: embedded fields take none", e.t, sf.Name)
	}
	if slices.Contains(w.seen, inner) {
		a.fail("struct %s is embedded twice: embed it once", inner)
		return
	}
	w.seen = append(w.seen, inner)
	w.queue = append(w.queue, embedded{inner, index, e.prefix + sf.Name + "."})
}

// fieldTags reads required, nullable and default from the tags of f,
// refusing unknown jsonschema keys and tags that disagree about whether
// the member may be left out.
func (a *analyzer) fieldTags(p *plan, f *fieldPlan) {
	if err := checkTagKeys(f.stags); err != nil {
		a.fail("field %s.%s: %v", p.t, f.goName, err)
	}
	jsonOptional := slices.Contains(f.jsonOpts, "omitempty") || slices.Contains(f.jsonOpts, "omitzero")
	required := !jsonOptional && !f.ptr
	var defaults []string
	tagRequired := false
	for _, t := range f.stags {
		switch {
		case t == "required":
			required, tagRequired = true, true
		case t == "nullable":
			f.nullable = true
		case strings.HasPrefix(t, "default="):
			defaults = append(defaults, strings.TrimPrefix(t, "default="))
		}
	}
	rules := parseRules(f.vtag)
	f.rules = rules
	if err := presenceAgreement(tagRequired, f.nullable, len(defaults) > 0, rules); err != nil {
		a.fail("field %s.%s: %v", p.t, f.goName, err)
	}
	f.presence = newPresenceRules(f.vtag, f.typ)
	if rules.required() {
		required = true
	}
	if !required {
		required = rules.failsOnZero(f.typ)
	}
	if len(defaults) > 0 {
		def, tree, err := defaultValue(f, defaults)
		if err != nil {
			a.fail("field %s.%s: default %s: %v: fix the default= value", p.t, f.goName, strings.Join(defaults, ","), err)
		} else if err := checkDefault(f.typ, f.vtag, def); err != nil {
			a.fail("field %s.%s: %v: fix the default= value or the validate tag", p.t, f.goName, err)
		} else {
			f.def, f.defTree = def, tree
			required = false
		}
	}
	f.required = required
}

// defaultValue turns default= tag values into JSON, typed by the field, and
// checks that the decoder accepts it. It returns the JSON both encoded and
// as a tree.
func defaultValue(f *fieldPlan, vals []string) (jsontext.Value, any, error) {
	var v any
	if f.plan.kind == planArray {
		arr := make([]any, 0, len(vals))
		for _, s := range vals {
			e, err := scalarDefault(f.plan.elem.jsonType, s)
			if err != nil {
				return nil, nil, err
			}
			arr = append(arr, e)
		}
		v = arr
	} else {
		if len(vals) > 1 {
			return nil, nil, fmt.Errorf("only array fields take several defaults")
		}
		jt := f.plan.jsonType
		if f.quoted {
			jt = "string"
		}
		e, err := scalarDefault(jt, vals[0])
		if err != nil {
			return nil, nil, err
		}
		v = e
	}
	b := encodeTree(v)
	probe := reflect.New(f.typ)
	if err := jsonv2.Unmarshal(b, probe.Interface()); err != nil {
		return nil, nil, fmt.Errorf("%s does not decode into %s: fix the default= value", b, f.typ)
	}
	return b, v, nil
}

func scalarDefault(jsonType, s string) (any, error) {
	switch jsonType {
	case "string":
		return s, nil
	case "integer":
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			if _, err := strconv.ParseUint(s, 10, 64); err != nil {
				return nil, fmt.Errorf("%q is not an integer", s)
			}
		}
		return number(s), nil
	case "number":
		if _, err := strconv.ParseFloat(s, 64); err != nil || !isJSONNumber(s) {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return number(s), nil
	case "boolean":
		switch s {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not true or false", s)
	}
	return nil, fmt.Errorf("defaults are only supported for strings, numbers, booleans and arrays of them")
}

func isJSONNumber(s string) bool {
	return jsontext.Value(s).IsValid() && s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}

// splitTag splits a jsonschema tag on commas not preceded by a backslash,
// like invopop/jsonschema does.
func splitTag(tag string) []string {
	if tag == "" {
		return nil
	}
	if strings.IndexByte(tag, '\\') < 0 {
		return strings.Split(tag, ",")
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if c == '\\' && i+1 < len(tag) && tag[i+1] == ',' {
			cur.WriteByte(',')
			i++
			continue
		}
		if c == ',' {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(out, cur.String())
}

// constraintKeys are jsonschema tag keys that constrain values. When any is
// used, Bind also checks arguments against the schema itself, because the
// validator does not know about them.
var constraintKeys = []string{
	"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
	"type", "oneof_type", "anyof_type", "oneof_ref", "anyof_ref", "oneof_required", "anyof_required",
}
