package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// This file holds a small ordered JSON tree. Schemas are built and rewritten
// as trees (so property order survives every step) and encoded once.
//
// A tree value is one of: *object, []any, string, number, bool, nil (null).

// number is a JSON number kept as its literal text, so that 30 stays 30 and
// 95.5 stays 95.5.
type number string

// object is a JSON object that keeps its members in insertion order.
type object struct {
	members []member
}

type member struct {
	key string
	val any
}

func (o *object) get(key string) (any, bool) {
	for i := range o.members {
		if o.members[i].key == key {
			return o.members[i].val, true
		}
	}
	return nil, false
}

func (o *object) getObject(key string) *object {
	v, _ := o.get(key)
	obj, _ := v.(*object)
	return obj
}

func (o *object) getString(key string) string {
	v, _ := o.get(key)
	s, _ := v.(string)
	return s
}

func (o *object) has(key string) bool {
	_, ok := o.get(key)
	return ok
}

// set replaces the value of key, or appends the member.
func (o *object) set(key string, val any) {
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

func (o *object) del(key string) {
	o.members = slices.DeleteFunc(o.members, func(m member) bool { return m.key == key })
}

// parseTree decodes JSON text into a tree. It uses the strict decoder:
// duplicate member names and invalid UTF-8 are errors.
func parseTree(data []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	v, err := readTree(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the top-level value")
		}
		return nil, err
	}
	return v, nil
}

func readTree(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return tok.Bool(), nil
	case '"':
		return tok.String(), nil
	case '0':
		return number(tok.String()), nil
	case '{':
		obj := &object{}
		for dec.PeekKind() != '}' {
			nameTok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := nameTok.String()
			v, err := readTree(dec)
			if err != nil {
				return nil, err
			}
			obj.members = append(obj.members, member{name, v})
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return obj, nil
	case '[':
		arr := []any{}
		for dec.PeekKind() != ']' {
			v, err := readTree(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return arr, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// appendTree appends the compact JSON encoding of v.
func appendTree(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case string:
		return appendQuoted(b, v)
	case number:
		return append(b, v...)
	case *object:
		b = append(b, '{')
		for i, m := range v.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, m.key)
			b = append(b, ':')
			b = appendTree(b, m.val)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTree(b, e)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, e)
		}
		return append(b, ']')
	}
	return append(b, "null"...) // unreachable: trees hold only the types above
}

func appendQuoted(b []byte, s string) []byte {
	out, err := jsontext.AppendQuote(b, s)
	if err != nil {
		// Invalid UTF-8 is replaced, never dropped silently into invalid JSON.
		out, _ = jsontext.AppendQuote(b, strings.ToValidUTF8(s, "\uFFFD"))
	}
	return out
}

// encodeTree returns the JSON encoding of v in a slice of its own size,
// encoding it first into a reused buffer.
func encodeTree(v any) jsontext.Value {
	bp := encodeBufs.Get().(*[]byte)
	b := appendTree((*bp)[:0], v)
	out := jsontext.Value(bytes.Clone(b))
	if cap(b) <= 64<<10 {
		*bp = b
		encodeBufs.Put(bp)
	}
	return out
}

var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// cloneTree deep-copies a tree.
func cloneTree(v any) any {
	switch v := v.(type) {
	case *object:
		c := &object{members: make([]member, len(v.members))}
		for i, m := range v.members {
			c.members[i] = member{m.key, cloneTree(m.val)}
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = cloneTree(e)
		}
		return c
	case []string:
		return slices.Clone(v)
	}
	return v
}

// Kinds of keyword, as keywordKind tells them apart.
const (
	notSubschema = iota
	subschemaMap
	subschemaList
	subschemaValue
)

// keywordKind says whether key holds a map of subschemas, a list of them,
// or one, for every walk over a schema.
func keywordKind(key string) int {
	switch key {
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
		return subschemaMap
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return subschemaList
	case "items", "additionalItems", "additionalProperties", "propertyNames", "not",
		"if", "then", "else", "contains", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return subschemaValue
	}
	return notSubschema
}

// walkSubschemas calls fn for every direct subschema of s, with the
// keyword path that leads to it.
func walkSubschemas(s *object, fn func(sub any, kw string, key string, idx int)) {
	for _, m := range s.members {
		switch kind := keywordKind(m.key); {
		case kind == subschemaMap:
			if obj, ok := m.val.(*object); ok {
				for _, p := range obj.members {
					fn(p.val, m.key, p.key, -1)
				}
			}
		case kind == subschemaList:
			if arr, ok := m.val.([]any); ok {
				for i, e := range arr {
					fn(e, m.key, "", i)
				}
			}
		case kind == subschemaValue:
			if arr, ok := m.val.([]any); ok && m.key == "items" { // draft 2019 and older: items as a list
				for i, e := range arr {
					fn(e, m.key, "", i)
				}
				continue
			}
			fn(m.val, m.key, "", -1)
		}
	}
}

// keywordRank fixes the order of keywords in generated schemas so golden
// files are stable and the output reads well: type first, $defs last.
var keywordRank = func() map[string]int {
	order := []string{
		"$schema", "$id", "$ref", "type", "title", "description",
		"format", "const", "enum", "oneOf", "anyOf", "allOf", "not",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType",
		"prefixItems", "items", "minItems", "maxItems", "uniqueItems", "contains",
		"properties", "patternProperties", "additionalProperties", "propertyNames",
		"minProperties", "maxProperties", "required",
		"default", "examples", "readOnly", "writeOnly", "deprecated",
	}
	m := make(map[string]int, len(order))
	for i, k := range order {
		m[k] = i
	}
	return m
}()

// canonicalize sorts the keywords of s and of every subschema by keywordRank.
// Unknown keywords (extensions such as x-mcp-header) follow the known ones in
// name order; $defs comes last. Property order is left alone.
func canonicalize(v any) {
	s, ok := v.(*object)
	if !ok {
		return
	}
	rank := func(k string) int {
		if k == "$defs" {
			return 1 << 20
		}
		if r, ok := keywordRank[k]; ok {
			return r
		}
		return 1 << 10
	}
	if len(s.members) == 2 && s.has("const") && s.has("title") {
		// An enum choice reads as {"const": value, "title": label}.
		if s.members[0].key != "const" {
			s.members[0], s.members[1] = s.members[1], s.members[0]
		}
		return
	}
	// A stable insertion sort on ranks worked out once per member: schema
	// objects have a handful of keywords.
	var buf [16]int
	ranks := buf[:0]
	if len(s.members) > len(buf) {
		ranks = make([]int, 0, len(s.members))
	}
	for _, m := range s.members {
		ranks = append(ranks, rank(m.key))
	}
	less := func(i, j int) bool { // member i sorts before member j
		if ranks[i] != ranks[j] {
			return ranks[i] < ranks[j]
		}
		return ranks[i] == 1<<10 && s.members[i].key < s.members[j].key
	}
	for i := 1; i < len(s.members); i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			s.members[j], s.members[j-1] = s.members[j-1], s.members[j]
			ranks[j], ranks[j-1] = ranks[j-1], ranks[j]
		}
	}
	walkSubschemas(s, func(sub any, _ string, _ string, _ int) { canonicalize(sub) })
}

// numbers

func parseRat(n number) (*big.Rat, bool) {
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

// tighter returns whichever of a and b is the tighter bound: the larger for
// lower bounds (lower=true), the smaller for upper bounds.
func tighter(a, b number, lower bool) number {
	ra, okA := parseRat(a)
	rb, okB := parseRat(b)
	if !okA {
		return b
	}
	if !okB {
		return a
	}
	c := ra.Cmp(rb)
	if (lower && c >= 0) || (!lower && c <= 0) {
		return a
	}
	return b
}

// setBound sets a numeric keyword, keeping an existing tighter bound.
func setBound(s *object, key string, n number, lower bool) {
	if old, ok := s.get(key); ok {
		if on, ok := old.(number); ok {
			n = tighter(on, n, lower)
		}
	}
	s.set(key, n)
}
