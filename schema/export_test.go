package schema

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
	_ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate" // FromJSON, and the differential tests
)

// MirroredRules exposes the list of mirrored validate rules to the
// agreement test, which checks that each one is covered.
var MirroredRules = mirroredRules

// DescribeMismatch describes t from the plans of its walk, as For does,
// and reflects it with invopop/jsonschema's Reflector, whose tag syntax
// and shapes describe.go follows, and returns both trees encoded, with
// what generate replaces in any case left out: defaults, and the required
// lists of structs.
func DescribeMismatch(t reflect.Type, opts Options) (ours, invopop string, err error) {
	st := t
	for st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	a := &analyzer{root: t, plans: map[reflect.Type]*plan{}, strict: opts.Strict}
	root := a.analyze(st, st.Name())
	if a.err != nil {
		return "", "", a.err
	}
	useRefs := opts.KeepRefs || a.recursive
	d := &describer{root: t}
	var names map[reflect.Type]string
	if useRefs {
		names = defNames(a.plans)
		d.names, d.defs = names, map[string]*object{}
	}
	v := d.describe(root)
	if d.err != nil {
		return "", "", d.err
	}
	top := v.(*object)
	if len(d.defs) > 0 {
		defs := &object{}
		for _, name := range sortedNames(d.defs) {
			defs.set(name, d.defs[name])
		}
		top.set("$defs", defs)
	}
	trueForEmpty(top)

	r := &jsonschema.Reflector{
		Anonymous:                 true,
		AllowAdditionalProperties: true,
		DoNotReference:            !useRefs,
		Namer:                     func(t reflect.Type) string { return names[t] },
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch sh, _ := shapeOf(t); sh {
			case shapeText:
				return &jsonschema.Schema{Type: "string"}
			case shapeRaw:
				return &jsonschema.Schema{}
			}
			return nil
		},
	}
	s := r.ReflectFromType(root.t)
	s.Version = ""
	raw, err := json.Marshal(s)
	if err != nil {
		return "", "", err
	}
	want, err := parseTree(raw)
	if err != nil {
		return "", "", err
	}
	for _, tree := range []any{top, want} {
		leaveOutReplaced(tree)
		canonicalize(tree)
	}
	return string(encodeTree(top)), string(encodeTree(want)), nil
}

func sortedNames(m map[string]*object) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// leaveOutReplaced removes, in every subschema, the keywords generate
// replaces: default, and required beside properties.
func leaveOutReplaced(v any) {
	s, ok := v.(*object)
	if !ok {
		return
	}
	s.del("default")
	if s.has("properties") {
		s.del("required")
	}
	walkSubschemas(s, func(sub any, _, _ string, _ int) { leaveOutReplaced(sub) })
}

// Builds returns how many schemas For and Elicitation have built.
func Builds() int64 { return builds.Load() }

// CheckBoth checks doc against the whole generated schema of t twice: with
// the rule list Bind uses, and with the full engine (which must be linked).
// It returns the issues each check gives, as ValidationError text ("" for
// none), and whether t is checked by the rule list at all.
func CheckBoth(t *Type, doc []byte) (rules, engine string, native bool, err error) {
	rc, native := t.checker.(*ruleChecker)
	if !native {
		return "", "", false, nil
	}
	full, ok := engines[t]
	if !ok {
		doc, _ := decodeInstance(encodeTree(rc.root))
		if full, err = check.Full(doc); err != nil {
			return "", "", true, err
		}
		engines[t] = full
	}
	inst, err := decodeInstance(doc)
	if err != nil {
		return "", "", true, err
	}
	text := func(c check.Checker) string {
		var is issues
		if f := c.Check(inst); f != nil {
			is.addFindings(f, inst, nil, t.plan)
		}
		if err := is.err(); err != nil {
			return err.Error()
		}
		return ""
	}
	return text(rc), text(full), true, nil
}

// engines holds CheckBoth's compiled schemas (tests call it from one
// goroutine).
var engines = map[*Type]check.Checker{}
