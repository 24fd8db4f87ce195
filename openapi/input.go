package openapi

import (
	"fmt"
	"mime"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Where an argument goes in the request.
const (
	inPath   = "path"
	inQuery  = "query"
	inHeader = "header"
	inCookie = "cookie"
	inBody   = "body"
)

// An argument is one property of a tool's input schema and where its value
// goes: a parameter, one property of an object body, or the whole body
// (orig "").
type argument struct {
	name  string // the property name in the input schema
	in    string
	orig  string // the parameter's or body property's own name
	param *openapi3.Parameter
}

// Body kinds, by media type.
type bodyKind int

const (
	bodyJSON bodyKind = iota
	bodyForm
	bodyMultipart
	bodyText
	bodyBinary
)

type bodySpec struct {
	mediaType string
	kind      bodyKind
	lifted    bool // an object JSON body whose properties are arguments
	required  bool
	binary    map[string]bool   // multipart parts sent as files (base64 in the arguments)
	partTypes map[string]string // multipart parts' Content-Type from the encoding object
}

// A mapping is everything a call of one operation needs.
type mapping struct {
	operation
	args   []argument
	body   *bodySpec
	input  map[string]any
	output map[string]any // nil: no output schema
	wrap   bool           // structured content is {"result": ...}
	accept string
}

// parameters merges the path item's parameters with the operation's (the
// operation's win), leaving out the headers OpenAPI says are not
// parameters (Accept, Content-Type, Authorization).
func parameters(o operation) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	add := func(ps openapi3.Parameters) {
		for _, r := range ps {
			p := r.Value
			if p == nil {
				continue
			}
			if p.In == inHeader && slices.Contains([]string{"accept", "content-type", "authorization"}, strings.ToLower(p.Name)) {
				continue
			}
			i := slices.IndexFunc(out, func(q *openapi3.Parameter) bool { return q.In == p.In && q.Name == p.Name })
			if i >= 0 {
				out[i] = p
			} else {
				out = append(out, p)
			}
		}
	}
	add(o.item.Parameters)
	add(o.op.Parameters)
	return out
}

// paramSchema returns a parameter's schema: its own, or that of its
// content (a parameter sent as JSON).
func paramSchema(p *openapi3.Parameter) *openapi3.SchemaRef {
	if p.Schema != nil {
		return p.Schema
	}
	for _, k := range sortedKeys(p.Content) {
		return p.Content[k].Schema
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isJSONType reports whether a media type is JSON (application/json,
// application/*+json).
func isJSONType(mt string) bool {
	mt, _, _ = mime.ParseMediaType(mt)
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json"
}

// pickBody chooses the request body's media type: JSON first, then form,
// multipart, text, binary, then the first other one.
func pickBody(content openapi3.Content) (string, bodyKind) {
	keys := sortedKeys(content)
	for _, pref := range []struct {
		match func(string) bool
		kind  bodyKind
	}{
		{isJSONType, bodyJSON},
		{func(m string) bool { return strings.HasPrefix(m, "application/x-www-form-urlencoded") }, bodyForm},
		{func(m string) bool { return strings.HasPrefix(m, "multipart/") }, bodyMultipart},
		{func(m string) bool { return strings.HasPrefix(m, "text/") }, bodyText},
		{func(m string) bool { return true }, bodyBinary},
	} {
		for _, k := range keys {
			if pref.match(strings.ToLower(k)) {
				kind := pref.kind
				if kind == bodyBinary && (strings.Contains(k, "xml") || k == "*/*") {
					kind = bodyText
				}
				return k, kind
			}
		}
	}
	return "", bodyJSON
}

// concreteType is the Content-Type a body of media range mt is sent with:
// mt itself, or for a range with a wildcard (text/*, */*, image/*) a type
// of its kind.
func concreteType(mt string, kind bodyKind) string {
	if !strings.Contains(mt, "*") {
		return mt
	}
	if kind == bodyText {
		return "text/plain"
	}
	return "application/octet-stream"
}

// isBinarySchema reports whether values of s are bytes (base64 in the
// arguments).
func isBinarySchema(r *openapi3.SchemaRef) bool {
	if r == nil || r.Value == nil {
		return false
	}
	s := r.Value
	return s.Format == "binary" || s.Format == "byte" || s.ContentEncoding != "" ||
		s.ContentMediaType != "" && !strings.HasPrefix(s.ContentMediaType, "text/")
}

// A candidate is an argument before its name is final.
type candidate struct {
	arg      argument
	schema   any
	required bool
}

// mapOperation builds the input and output schemas of o and the argument
// map its calls use.
func mapOperation(o operation) (*mapping, error) {
	m := &mapping{operation: o}
	conv := newConverter(false)
	cands, err := paramCandidates(o, conv)
	if err != nil {
		return nil, err
	}
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil && len(rb.Value.Content) > 0 {
		var bc []candidate
		m.body, bc = bodyCandidates(rb.Value, conv)
		cands = append(cands, bc...)
	}
	props := map[string]any{}
	var required []string
	for _, c := range nameArguments(cands) {
		m.args = append(m.args, c.arg)
		props[c.arg.name] = c.schema
		if c.required {
			required = append(required, c.arg.name)
		}
	}
	in := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		in["required"] = required
	}
	m.input = conv.finish(in)
	m.output, m.wrap, m.accept = outputSchema(o.op)
	return m, nil
}

// paramCandidates are the arguments of o's parameters.
func paramCandidates(o operation, conv *converter) ([]candidate, error) {
	var cands []candidate
	for _, p := range parameters(o) {
		switch p.In {
		case inPath, inQuery, inHeader, inCookie:
		default:
			return nil, fmt.Errorf("parameter %q: unknown location %q", p.Name, p.In)
		}
		sch := conv.convert(paramSchema(p))
		if sm, ok := sch.(map[string]any); ok {
			if _, has := sm["description"]; !has && p.Description != "" {
				sm["description"] = p.Description
			}
			if p.Deprecated {
				sm["deprecated"] = true
			}
		}
		cands = append(cands, candidate{argument{in: p.In, orig: p.Name, param: p}, sch, p.Required || p.In == inPath})
	}
	return cands, nil
}

// liftable reports whether a JSON body's schema can have its properties at
// the top level: an object with named properties and no others (a map
// body, with additionalProperties or patternProperties, stays whole).
func liftable(sch any) bool {
	if !isObjectSchema(sch) {
		return false
	}
	m := sch.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	_, pattern := m["patternProperties"]
	ap, hasAP := m["additionalProperties"]
	return len(props) > 0 && !pattern && (!hasAP || ap == false)
}

// bodyCandidates returns how a request body is sent and its arguments: the
// properties of an object JSON body, or one argument "body".
func bodyCandidates(body *openapi3.RequestBody, conv *converter) (*bodySpec, []candidate) {
	mt, kind := pickBody(body.Content)
	media := body.Content[mt]
	spec := &bodySpec{mediaType: concreteType(mt, kind), kind: kind, required: body.Required}
	var sch any
	switch kind {
	case bodyText:
		sch = textBodySchema(media.Schema, conv)
	case bodyBinary:
		sch = map[string]any{"type": "string", "contentEncoding": "base64", "contentMediaType": mt}
	default:
		sch = conv.convert(media.Schema)
	}
	if kind == bodyMultipart && media.Schema != nil && media.Schema.Value != nil {
		spec.binary = map[string]bool{}
		spec.partTypes = map[string]string{}
		for name, ps := range media.Schema.Value.Properties {
			if isBinarySchema(ps) || ps.Value != nil && ps.Value.Items != nil && isBinarySchema(ps.Value.Items) {
				spec.binary[name] = true
			}
		}
		for name, enc := range media.Encoding {
			if enc != nil && enc.ContentType != "" {
				spec.partTypes[name] = enc.ContentType
			}
		}
	}
	if sm, ok := sch.(map[string]any); ok && body.Description != "" {
		if _, has := sm["description"]; !has {
			sm["description"] = body.Description
		}
	}
	if kind != bodyJSON || !liftable(sch) {
		return spec, []candidate{{argument{in: inBody}, sch, body.Required}}
	}
	spec.lifted = true
	sm := sch.(map[string]any)
	bprops, _ := sm["properties"].(map[string]any)
	breq, _ := sm["required"].([]string)
	var cands []candidate
	for _, name := range sortedKeys(bprops) {
		cands = append(cands, candidate{argument{in: inBody, orig: name}, bprops[name], body.Required && slices.Contains(breq, name)})
	}
	return spec, cands
}

// nameArguments gives each candidate its property name: its own, with the
// location as a suffix when the name is used in more than one location.
func nameArguments(cands []candidate) []candidate {
	base := func(c candidate) string {
		if c.arg.orig == "" {
			return "body"
		}
		return c.arg.orig
	}
	locations := map[string]map[string]bool{}
	for _, c := range cands {
		n := base(c)
		if locations[n] == nil {
			locations[n] = map[string]bool{}
		}
		locations[n][c.arg.in] = true
	}
	used := map[string]bool{}
	for i, c := range cands {
		n := base(c)
		if len(locations[n]) > 1 {
			n += "_" + c.arg.in
		}
		for b, k := n, 2; used[n]; k++ {
			n = fmt.Sprintf("%s_%d", b, k)
		}
		used[n] = true
		cands[i].arg.name = n
	}
	return cands
}

// successResponse returns the operation's success response: 200, 201,
// another 2xx, then 2XX.
func successResponse(op *openapi3.Operation) *openapi3.Response {
	if op.Responses == nil {
		return nil
	}
	rs := op.Responses.Map()
	keys := []string{"200", "201"}
	for _, k := range sortedKeys(rs) {
		if len(k) == 3 && k[0] == '2' && k != "200" && k != "201" && k != "2XX" {
			keys = append(keys, k)
		}
	}
	keys = append(keys, "2XX", "2xx")
	for _, k := range keys {
		if r := rs[k]; r != nil && r.Value != nil {
			return r.Value
		}
	}
	return nil
}

// outputSchema returns the output schema of op (nil when its success
// response is not JSON), whether results are wrapped as {"result": ...},
// and the Accept header its requests send.
func outputSchema(op *openapi3.Operation) (map[string]any, bool, string) {
	r := successResponse(op)
	if r == nil || len(r.Content) == 0 {
		return nil, false, ""
	}
	types := sortedKeys(r.Content)
	accept := strings.Join(types, ", ")
	for _, mt := range types {
		if !isJSONType(mt) || r.Content[mt].Schema == nil {
			continue
		}
		conv := newConverter(true)
		sch := conv.convert(r.Content[mt].Schema)
		if isObjectSchema(sch) {
			sm := sch.(map[string]any)
			sm["type"] = "object"
			return conv.finish(sm), false, accept
		}
		return conv.finish(map[string]any{
			"type":       "object",
			"properties": map[string]any{"result": sch},
			"required":   []string{"result"},
		}), true, accept
	}
	return nil, false, accept
}

// textBodySchema is the argument schema of a text body: the document's own
// string schema (so its maxLength, pattern or enum are checked before the
// request is sent), or any string when it declares something else.
func textBodySchema(r *openapi3.SchemaRef, conv *converter) any {
	if r != nil && r.Value != nil && r.Value.Type.Is("string") {
		return conv.convert(r)
	}
	return map[string]any{"type": "string"}
}
