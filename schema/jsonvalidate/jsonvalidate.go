// Package jsonvalidate links a full JSON Schema engine,
// santhosh-tekuri/jsonschema, into package schema. Import it for its side
// effect where a program checks arguments against JSON Schemas it did not
// generate from Go types:
//
//	import _ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"
//
// schema.FromJSON (and with it fastmcp.InputSchema) needs it, and so does
// schema.For for a type whose schema uses a keyword the rule list of
// package schema does not check (one a JSONSchema or JSONSchemaExtend
// method adds, such as unevaluatedProperties, or a format such as
// "duration"); both fail with an error naming this package when it is not
// linked. Schemas generated from Go types and their tags never need it.
//
// The engine's cost is its package init, which compiles the metaschemas of
// five drafts: about 2.5 ms and 1.7 MB allocated per process, and about
// 1 MB of binary. That is why package schema does not import it.
//
// Why this engine: it reports every failure with the instance location
// (so "list[1].x: must be >= 3; name: is required" comes in one answer),
// its findings are typed (kind.*), so package schema words them rather
// than parsing text, it asserts "format", rejects a malformed schema at
// compile time against the metaschema of its draft, and reads drafts 4 to
// 2020-12. google/jsonschema-go (go-sdk's engine, 0.35 ms init, about
// 0.5 MB smaller) was weighed and left: it stops at the first failure,
// names the schema location instead of the instance's (no array index),
// gives its findings as text only, does not assert "format", accepts
// "type":"strin" and "minLength":-1, and refuses drafts 4, 6 and 2019-09
// when validating rather than when compiling. kaptinlin/jsonschema adds
// about 9 MB to a binary.
package jsonvalidate

import (
	"errors"
	"fmt"

	jsonschemav6 "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

func init() { check.Full = compile }

const schemaURL = "mem://fastmcp/schema.json"

// noLoader refuses every external reference: a schema may only refer to
// itself, never to files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not allowed: put the definition under $defs", url)
}

// compile compiles a schema in instance form (draft 2020-12 unless it
// says otherwise in $schema), asserting formats.
func compile(doc any) (check.Checker, error) {
	c := jsonschemav6.NewCompiler()
	c.DefaultDraft(jsonschemav6.Draft2020)
	c.UseLoader(noLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return checker{s}, nil
}

// checker checks instances with a compiled schema.
type checker struct{ s *jsonschemav6.Schema }

func (c checker) Check(inst any) *check.Finding {
	err := c.s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschemav6.ValidationError
	if !errors.As(err, &ve) {
		return &check.Finding{Rule: "schema"} // Validate returns no other error
	}
	return convert(ve)
}

// convert turns the engine's error tree into findings.
func convert(e *jsonschemav6.ValidationError) *check.Finding {
	f := &check.Finding{Loc: e.InstanceLocation}
	for _, c := range e.Causes {
		f.Causes = append(f.Causes, convert(c))
	}
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		f.Rule = kw[len(kw)-1]
		f.Keyword = kw[0]
		if len(kw) > 1 {
			f.Keyword = kw[0] + "/" + kw[1] // dependentRequired/prop: worded as a rule
		}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
		f.Kind = check.Group
	case *kind.AnyOf:
		f.Kind = check.AnyOf
	case *kind.OneOf:
		f.Kind = check.OneOf
	case *kind.Required:
		f.Kind, f.Names = check.Required, k.Missing
	case *kind.AdditionalProperties:
		f.Kind, f.Names = check.Unknown, k.Properties
	case *kind.Type:
		f.Kind, f.Want, f.Got = check.Type, k.Want, k.Got
	case *kind.Minimum:
		f.Want = k.Want
	case *kind.Maximum:
		f.Want = k.Want
	case *kind.ExclusiveMinimum:
		f.Want = k.Want
	case *kind.ExclusiveMaximum:
		f.Want = k.Want
	case *kind.MultipleOf:
		f.Want = k.Want
	case *kind.MinLength:
		f.Want = k.Want
	case *kind.MaxLength:
		f.Want = k.Want
	case *kind.MinItems:
		f.Want = k.Want
	case *kind.MaxItems:
		f.Want = k.Want
	case *kind.MinProperties:
		f.Want = k.Want
	case *kind.MaxProperties:
		f.Want = k.Want
	case *kind.Pattern:
		f.Want = k.Want
	case *kind.Format:
		f.Want = k.Want
	case *kind.Enum:
		f.Want = k.Want
	case *kind.Const:
		f.Want = k.Want
	case *kind.Not:
		f.Keyword = "not"
	case *kind.FalseSchema:
		f.Keyword = "false"
	}
	return f
}
