package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
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
// or the full engine). skip, if not nil, drops issues at paths already
// reported by faster checks. root, if not nil, is the plan of the
// arguments: an optional member sent as null counts as absent, as in the
// fast path, so the schema's complaint about it is dropped.
func (is *issues) addFindings(f *check.Finding, inst any, skip map[string]bool, root *plan) {
	add := func(p path, rule, msg string) {
		if skip != nil && covered(p.String(), skip) {
			return
		}
		is.add(p, rule, msg)
	}
	var walk func(f *check.Finding)
	walk = func(f *check.Finding) {
		at := instancePath(f.Loc, inst)
		switch f.Kind {
		case check.Group:
			for _, c := range f.Causes {
				walk(c)
			}
			return
		case check.AnyOf, check.OneOf:
			var alts []string
			for _, c := range f.Causes {
				alts = append(alts, strings.TrimPrefix(describeFinding(c), "must "))
			}
			msg := "must match one of the allowed forms"
			if len(alts) > 0 {
				msg = "must " + strings.Join(alts, ", or ")
			}
			add(at, f.Rule, msg)
			return
		case check.Required:
			for _, m := range f.Names {
				add(at.member(m), "required", msgRequired)
			}
			return
		case check.Unknown:
			for _, m := range f.Names {
				add(at.member(m), "unknown", msgUnknown)
			}
			return
		case check.Type:
			if root != nil && optionalNull(f.Loc, inst, root) {
				return
			}
		}
		rule := f.Rule
		if rule == "" {
			rule = "schema"
		}
		add(at, rule, describeFinding(f))
	}
	walk(f)
}

// describeFinding words one failure the way validator messages read.
func describeFinding(f *check.Finding) string {
	switch f.Kind {
	case check.Type:
		want, _ := f.Want.([]string)
		return fmt.Sprintf("must be %s, got %s", strings.Join(want, " or "), f.Got)
	case check.Required:
		return "is missing " + strings.Join(f.Names, ", ")
	case check.Leaf, check.Unknown:
		if msg := describeLeaf(f.Keyword, f.Want); msg != "" {
			return msg
		}
		if kw := cmp.Or(f.Keyword, f.Rule); kw != "" {
			return msgRule(kw)
		}
		return "is invalid"
	}
	var parts []string // a group, anyOf or oneOf: what failed inside
	for _, c := range f.Causes {
		parts = append(parts, describeFinding(c))
	}
	if len(parts) > 0 {
		return strings.Join(parts, " and ")
	}
	if f.Rule != "" {
		return msgRule(f.Rule)
	}
	return "is invalid"
}

// describeLeaf words a failed keyword whose value is want, or returns "".
func describeLeaf(keyword string, want any) string {
	rat, _ := want.(*big.Rat)
	n, _ := want.(int)
	str, _ := want.(string)
	switch keyword {
	case "minimum":
		return msgCompare(">=", ratText(rat))
	case "maximum":
		return msgCompare("<=", ratText(rat))
	case "exclusiveMinimum":
		return msgCompare(">", ratText(rat))
	case "exclusiveMaximum":
		return msgCompare("<", ratText(rat))
	case "multipleOf":
		return "must be a multiple of " + ratText(rat)
	case "minLength":
		return msgAtLeast(countInt(n, unitCharacter))
	case "maxLength":
		return msgAtMost(countInt(n, unitCharacter))
	case "minItems":
		return msgAtLeast(countInt(n, unitItem))
	case "maxItems":
		return msgAtMost(countInt(n, unitItem))
	case "minProperties":
		return msgAtLeast(countInt(n, unitEntry))
	case "maxProperties":
		return msgAtMost(countInt(n, unitEntry))
	case "uniqueItems":
		return msgUnique
	case "pattern":
		return msgPattern(str)
	case "format":
		return "must be a valid " + str
	case "enum":
		list, _ := want.([]any)
		vals := make([]string, len(list))
		for i, v := range list {
			b, _ := json.Marshal(v) // encoding a value for the message
			vals[i] = string(b)
		}
		return msgOneOf(vals)
	case "const":
		b, _ := json.Marshal(want)
		return "must be " + string(b)
	case "not":
		return "must not match the excluded value"
	case "false":
		return "is not allowed"
	}
	return ""
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
