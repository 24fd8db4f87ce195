package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	jsonschemav6 "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// This file checks JSON values against a schema with
// santhosh-tekuri/jsonschema and turns its findings
// into issues.
//
// Why this engine: it reports every failure with the instance location
// (so "list[1].x: must be >= 3; name: is required" comes in one answer),
// its findings are typed (kind.*), so the messages above are worded here
// rather than parsed from text, it asserts "format", rejects a malformed
// schema at compile time against the metaschema of its draft, and reads
// drafts 4 to 2020-12. Its cost is its package init, which compiles the
// metaschemas of five drafts: about 4 ms and 1.7 MB allocated per process;
// with 100 tools, start to initialize answered takes 21 ms against 15 ms
// with that init removed (medians of 30 paired whole-process runs) and
// peak RSS 16.6 against 14.4 MiB. google/jsonschema-go (go-sdk's engine,
// 0.35 ms init, about 0.5 MB smaller) was weighed and left: it stops at the
// first failure, names the schema location instead of the instance's
// (no array index), gives its findings as text only, does not assert
// "format", accepts "type":"strin" and "minLength":-1, and refuses drafts
// 4, 6 and 2019-09 when validating rather than when compiling.
// kaptinlin/jsonschema adds about 9 MB to a binary.

const schemaURL = "mem://fastmcp/schema.json"

// noLoader refuses every external reference: a schema may only refer to
// itself, never to files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not allowed: put the definition under $defs", url)
}

// compileSchema compiles a schema document (draft 2020-12 unless it says
// otherwise in $schema).
func compileSchema(doc []byte, assertFormat bool) (*jsonschemav6.Schema, error) {
	v, err := decodeInstance(doc)
	if err != nil {
		return nil, err
	}
	c := jsonschemav6.NewCompiler()
	c.DefaultDraft(jsonschemav6.Draft2020)
	c.UseLoader(noLoader{})
	if assertFormat {
		c.AssertFormat()
	}
	if err := c.AddResource(schemaURL, v); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

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

// addSchemaIssues adds the findings of the schema validator. skip, if not
// nil, drops issues at paths already reported by faster checks. root, if not
// nil, is the plan of the arguments: an optional member sent as null counts
// as absent, as in the fast path, so the schema's complaint about it is
// dropped.
func (is *issues) addSchemaIssues(verr error, inst any, skip map[string]bool, root *plan) {
	var ve *jsonschemav6.ValidationError
	if !errors.As(verr, &ve) {
		is.add(nil, "schema", verr.Error())
		return
	}
	add := func(p path, rule, msg string) {
		if skip != nil && covered(p.String(), skip) {
			return
		}
		is.add(p, rule, msg)
	}
	var walk func(e *jsonschemav6.ValidationError)
	walk = func(e *jsonschemav6.ValidationError) {
		at := instancePath(e.InstanceLocation, inst)
		switch k := e.ErrorKind.(type) {
		case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
			for _, c := range e.Causes {
				walk(c)
			}
			return
		case *kind.AnyOf, *kind.OneOf:
			var alts []string
			for _, c := range e.Causes {
				alts = append(alts, strings.TrimPrefix(describe(c), "must "))
			}
			rule := "anyOf"
			if _, ok := k.(*kind.OneOf); ok {
				rule = "oneOf"
			}
			msg := "must match one of the allowed forms"
			if len(alts) > 0 {
				msg = "must " + strings.Join(alts, ", or ")
			}
			add(at, rule, msg)
			return
		case *kind.Required:
			for _, m := range k.Missing {
				add(at.member(m), "required", msgRequired)
			}
			return
		case *kind.AdditionalProperties:
			for _, m := range k.Properties {
				add(at.member(m), "unknown", msgUnknown)
			}
			return
		case *kind.Type:
			if root != nil && optionalNull(e.InstanceLocation, inst, root) {
				return
			}
		}
		kw := e.ErrorKind.KeywordPath()
		rule := "schema"
		if len(kw) > 0 {
			rule = kw[len(kw)-1]
		}
		add(at, rule, describe(e))
	}
	walk(ve)
}

// describe words one schema finding the way validator messages read.
func describe(e *jsonschemav6.ValidationError) string {
	rat := func(r *big.Rat) string {
		if r.IsInt() {
			return r.Num().String()
		}
		f, _ := r.Float64()
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("must be %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Minimum:
		return msgCompare(">=", rat(k.Want))
	case *kind.Maximum:
		return msgCompare("<=", rat(k.Want))
	case *kind.ExclusiveMinimum:
		return msgCompare(">", rat(k.Want))
	case *kind.ExclusiveMaximum:
		return msgCompare("<", rat(k.Want))
	case *kind.MultipleOf:
		return "must be a multiple of " + rat(k.Want)
	case *kind.MinLength:
		return msgAtLeast(countInt(k.Want, unitCharacter))
	case *kind.MaxLength:
		return msgAtMost(countInt(k.Want, unitCharacter))
	case *kind.MinItems:
		return msgAtLeast(countInt(k.Want, unitItem))
	case *kind.MaxItems:
		return msgAtMost(countInt(k.Want, unitItem))
	case *kind.MinProperties:
		return msgAtLeast(countInt(k.Want, unitEntry))
	case *kind.MaxProperties:
		return msgAtMost(countInt(k.Want, unitEntry))
	case *kind.UniqueItems:
		return msgUnique
	case *kind.Pattern:
		return msgPattern(k.Want)
	case *kind.Format:
		return "must be a valid " + k.Want
	case *kind.Enum:
		vals := make([]string, len(k.Want))
		for i, v := range k.Want {
			b, _ := json.Marshal(v) // encoding a value for the message
			vals[i] = string(b)
		}
		return msgOneOf(vals)
	case *kind.Const:
		b, _ := json.Marshal(k.Want)
		return "must be " + string(b)
	case *kind.Not:
		return "must not match the excluded value"
	case *kind.FalseSchema:
		return "is not allowed"
	case *kind.Required:
		return "is missing " + strings.Join(k.Missing, ", ")
	case *kind.AnyOf, *kind.OneOf, *kind.AllOf, *kind.Group, *kind.Reference, *kind.Schema:
		var parts []string
		for _, c := range e.Causes {
			parts = append(parts, describe(c))
		}
		if len(parts) > 0 {
			return strings.Join(parts, " and ")
		}
	}
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		return msgRule(strings.Join(kw, "/"))
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
