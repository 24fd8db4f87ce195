package schema

import (
	"encoding/json"
	"strconv"
	"strings"
)

// This file turns the failures of a schema check into issues.

// decodeInstance decodes JSON strictly (case and duplicates as in the rest
// of the package) into map[string]any, []any, string, json.Number, bool
// and nil, the forms the schema validator understands exactly.
func decodeInstance(data []byte) (any, error) {
	tree, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	return instanceOf(tree), nil
}

// floatNumbers replaces json.Number by float64 in place, giving the usual
// map[string]any form.
func floatNumbers(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil, err
		}
		return f, nil
	case map[string]any:
		for k, e := range v {
			f, err := floatNumbers(e)
			if err != nil {
				return nil, err
			}
			v[k] = f
		}
	case []any:
		for i, e := range v {
			f, err := floatNumbers(e)
			if err != nil {
				return nil, err
			}
			v[i] = f
		}
	}
	return v, nil
}

// instancePath converts a validator instance location to a path, looking at
// the instance to tell array indexes from member names.
func instancePath(loc []string, inst any) path {
	var p path
	cur := inst
	for _, tok := range loc {
		switch c := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(c) {
				p = p.item(i)
				cur = c[i]
				continue
			}
			p = p.member(tok)
			cur = nil
		case map[string]any:
			p = p.member(tok)
			cur = c[tok]
		default:
			p = p.member(tok)
			cur = nil
		}
	}
	return p
}

// addFindings adds the failures found by a schema check (the rule list,
// or for FromJSON the engine). skip, if not nil, drops issues at paths
// already reported by faster checks. root, if not nil, is the plan of the
// arguments: an optional member sent as null counts as absent, as in the
// fast path, so the schema's complaint about it is dropped.
func (is *issues) addFindings(f *finding, inst any, skip map[string]bool, root *plan) {
	add := func(p path, rule, msg string) {
		if skip != nil && covered(p.String(), skip) {
			return
		}
		is.add(p, rule, msg)
	}
	var walk func(f *finding)
	walk = func(f *finding) {
		at := instancePath(f.loc, inst)
		switch f.kind {
		case fGroup:
			for _, c := range f.causes {
				walk(c)
			}
			return
		case fAnyOf, fOneOf:
			var alts []string
			for _, c := range f.causes {
				alts = append(alts, strings.TrimPrefix(describeFinding(c), "must "))
			}
			msg := "must match one of the allowed forms"
			if len(alts) > 0 {
				msg = "must " + strings.Join(alts, ", or ")
			}
			add(at, f.rule, msg)
			return
		case fRequired:
			for _, m := range f.names {
				add(at.member(m), "required", msgRequired)
			}
			return
		case fUnknown:
			for _, m := range f.names {
				add(at.member(m), "unknown", msgUnknown)
			}
			return
		case fType:
			if root != nil && optionalNull(f.loc, inst, root) {
				return
			}
		}
		rule := f.rule
		if rule == "" {
			rule = "schema"
		}
		add(at, rule, describeFinding(f))
	}
	walk(f)
}

// describeFinding words one failure the way validator messages read.
func describeFinding(f *finding) string {
	switch f.kind {
	case fLeaf, fType, fRequired, fUnknown:
		return f.msg
	}
	var parts []string
	for _, c := range f.causes {
		parts = append(parts, describeFinding(c))
	}
	if len(parts) > 0 {
		return strings.Join(parts, " and ")
	}
	if f.rule != "" {
		return msgRule(f.rule)
	}
	return "is invalid"
}

// optionalNull reports whether the value at loc is a null sent for an
// optional, non-nullable struct member.
func optionalNull(loc []string, inst any, p *plan) bool {
	if len(loc) == 0 {
		return false
	}
	cur := inst
	for i, tok := range loc {
		if p == nil {
			return false
		}
		var f *fieldPlan
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
			switch p.kind {
			case planStruct:
				f = p.byName[tok]
				if f == nil {
					return false
				}
				p = f.plan
			case planMap:
				p = p.elem
			default:
				return false
			}
		case []any:
			j, err := strconv.Atoi(tok)
			if err != nil || j < 0 || j >= len(c) || p.kind != planArray {
				return false
			}
			cur = c[j]
			p = p.elem
		default:
			return false
		}
		if i == len(loc)-1 {
			return cur == nil && f != nil && !f.required && !f.nullable
		}
	}
	return false
}
