// Package schema turns Go argument types into JSON Schema and binds tool
// call arguments to them.
//
// Its one job: given the struct a tool (or prompt, or elicitation form)
// takes, produce the JSON Schema (draft 2020-12) that MCP publishes, and on
// every call turn the arguments the model sent into a checked value of that
// struct, or into one error that tells the model exactly what to fix. It
// imports no other fastmcp package.
//
// A tool takes its arguments in a struct:
//
//	type AddArgs struct {
//		A int `json:"a" jsonschema:"description=first addend"`
//		B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
//	}
//
// At registration, [For] builds a [Type] once:
//
//	t, err := schema.For(reflect.TypeFor[AddArgs](), schema.Options{})
//
// [Type.Schema] is the inputSchema for tools/list:
//
//	{"type":"object","properties":{"a":{"type":"integer","description":"first addend"},
//	 "b":{"type":"integer","description":"second addend","minimum":0}},"required":["a","b"]}
//
// and [Type.Bind] runs on every call:
//
//	v, err := t.Bind(args) // v.Interface().(AddArgs)
//
// A failed Bind returns a [*ValidationError] listing every problem by JSON
// path and rule, for example "a: must be >= 0; b: is required".
//
// [FromJSON] wraps a hand-written schema instead (Bind then yields a
// map[string]any), and [Elicitation] builds the restricted flat schema of an
// elicitation form. A [TextBinder] binds arguments that arrive as text
// (prompt arguments, URI template variables) to a Type the same way: each
// text becomes the JSON its field expects, then Bind checks it.
//
// # What checks what
//
// The schemas For and Elicitation generate are enforced by this package
// alone: the validator for validate tags, and for the jsonschema-tag
// constraints and the explanation of a failed decoding, a rule list that
// reads the published schema itself (engine.go), with no JSON Schema
// engine and nothing compiled at package init. Hand-written schemas
// (FromJSON, and fastmcp.InputSchema) are checked by a full JSON Schema
// engine, santhosh-tekuri/jsonschema, which a program links by importing
// package schema/jsonvalidate for its side effect; so is a generated
// schema that uses a keyword the rule list does not know (one a type's
// JSONSchema or JSONSchemaExtend method adds, such as
// unevaluatedProperties, or a format such as "duration"). Without that
// import, FromJSON and such a For fail with an error naming it. The rule
// list and the engine give the same issues for the same schema and value
// (TestRulesAgreeWithEngine, FuzzRulesAgreeWithEngine).
//
// # Decoding
//
// Arguments are decoded with github.com/go-json-experiment/json, never with
// encoding/json: member names match case-sensitively ({"Name":1} never fills
// the field "name"), duplicate member names and invalid UTF-8 are errors.
// Unknown members are ignored, or are an error under [Options.Strict].
//
// # Schema output
//
// Property names come from json tags and properties keep struct field
// order, so output is deterministic. Keywords appear in a fixed order: type,
// title, description, constraints, properties, required, default, examples,
// extensions (x-...), $defs. There is no "$schema" (2020-12 is the MCP
// default dialect) and no "$id". Named struct types are inlined, since many
// hosts mishandle "$ref"; [Options.KeepRefs] keeps them under "$defs", and
// types that contain themselves always do (a reference to the root type is
// "#"). "additionalProperties":false appears on struct objects only under
// [Options.Strict].
//
// Go types map as follows: bool → boolean; ints → integer (unsigned ints
// also get "minimum":0, and 8-, 16- and 32-bit ints their range); floats →
// number; string → string; []byte → string (base64, with a pattern of its
// alphabet); a number with the json ",string" option → string with a
// pattern of JSON numbers; time.Time → string, format date-time; types
// with an
// UnmarshalText method → string; slices and arrays → array; maps → object
// with additionalProperties; structs → object; embedded structs are
// flattened; interfaces, jsontext.Value and json.RawMessage → any value.
// Types with a JSONSchema() *jsonschema.Schema method (invopop/jsonschema)
// describe themselves; a JSONSchemaExtend(*jsonschema.Schema) method
// changes the type's schema as invopop's Reflector applies it, and what it
// adds is enforced. The schema is made from the same walk of the type
// that prepares Bind; Go types and jsonschema tags are described as
// invopop/jsonschema's Reflector describes them.
//
// For rejects, with a message that says how to fix it: non-struct argument
// types; channels, functions and complex numbers; time.Duration and
// url.URL (they have no plain JSON form); types with their own
// UnmarshalJSON but no JSONSchema method; types with invopop/jsonschema's
// JSONSchemaAlias, JSONSchemaProperty and GetFieldDocString methods, and a
// JSONSchemaExtend method on a type whose fields carry jsonschema_extras
// (invopop's Schema would drop them); two fields with the same JSON
// name; json options case:, format:, inline and embed; a field hidden by
// jsonschema:"-" that is still decoded (use json:"-"); malformed validate
// tags and defaults; invalid x-mcp-header annotations.
//
// # Required fields
//
// A field is required (listed in "required", and Bind reports it missing
// even if the zero value would do) when any of these holds:
//
//   - its json tag has neither omitempty nor omitzero and it is not a pointer;
//   - it is tagged jsonschema:"required" or validate:"required";
//   - its validate rules reject its zero value (validate:"gte=1" on an int,
//     or any rule without omitempty on a pointer), since leaving it out
//     could never pass.
//
// A field with a default is never required: leaving it out means the
// default. For rejects a default that the field's own validate rules
// refuse.
//
// # Tag reference
//
// json: the member name, and omitempty / omitzero (optional) and string
// (a number sent as a JSON string).
//
// jsonschema (invopop/jsonschema syntax, comma separated, "\," for a
// literal comma): title=, description=, enum= (repeat per value), default=
// (repeat per element for arrays), example=, minimum=, maximum=,
// exclusiveMinimum=, exclusiveMaximum=, multipleOf=, minLength=,
// maxLength=, pattern=, format=, minItems=, maxItems=, uniqueItems=true,
// required, nullable (JSON null allowed). Bind enforces the constraints
// given here too: enum, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, minLength, maxLength and pattern (on strings, numbers
// and slices of them) and minItems, maxItems are checked while scanning the
// arguments; any other (format, multipleOf, uniqueItems, ...) makes Bind
// check every call against the whole schema, which costs a few
// microseconds more. Prefer validate tags: they are mirrored into the
// schema and checked by the validator. For refuses any other key, and a
// part without one (a description after an unescaped comma), naming the
// nearest known key.
//
// A constraint stated by both tags must be stated the same way: For
// refuses enum= against validate oneof (or eq) with another set of
// values, minimum=/exclusiveMinimum= against min, gte, gt or len with
// another bound or keyword (maximum likewise), minLength=/maxLength= and
// minItems=/maxItems= against the length rules, format= against a rule
// mirrored as another format, required against validate omitempty (or a
// default=), and nullable against validate required; after dive, the tag
// keys that apply to a slice's items are compared with the rules on its
// elements. Constraints that add to each other (two patterns, a pattern
// and a length) are both published and both enforced.
//
// An exported field without a json name is published under its Go name
// ("Query"); it is allowed, and [Type.Warnings] reports it.
//
// jsonschema_extras: k=v pairs copied into the property, such as
// x-mcp-header=Region (see [Type.Headers]).
//
// validate (go-playground/validator/v10): enforced by Bind, and mirrored
// into the schema so the model sees what the server checks:
//
//	required        string: minLength 1; number: not 0; bool: const true;
//	                pointer, slice, map: present and not null; always "required"
//	min, max        string: minLength/maxLength; slice: minItems/maxItems;
//	                map: minProperties/maxProperties; number: minimum/maximum
//	len             both bounds of the above; number: const
//	gte, lte        as min, max
//	gt, lt          number: exclusiveMinimum/exclusiveMaximum; lengths: n+1, n-1
//	eq, ne          const / not const (lengths for slices and maps)
//	oneof           enum, typed: numbers for integer fields
//	unique          uniqueItems (slices)
//	email           format email
//	url, uri        format uri
//	uuid            format uuid
//	ipv4, ipv6      format ipv4, ipv6; ip: anyOf of both
//	hostname        format hostname plus the validator's RFC 952 pattern
//	hostname_rfc1123  format hostname
//	datetime=L      format date-time for L = time.RFC3339, date for time.DateOnly
//	alpha, alphanum, alphaunicode, alphanumunicode, numeric, number,
//	hexadecimal, hexcolor, e164, lowercase, uppercase
//	                pattern (the validator's own regular expression)
//	contains, startswith, endswith
//	                pattern (the parameter, regex-escaped)
//	dive            the rules after it apply to items (slices) or to
//	                additionalProperties (maps); dive,keys,...,endkeys
//	                rules apply to propertyNames
//	omitempty, omitzero, omitnil
//	                the field may be left out (or sent as null) and the
//	                other rules are then skipped; a value that is sent, the
//	                zero value too, must satisfy them (see below)
//
// Every other validator rule (cross-field rules such as eqfield or
// required_if, a|b alternatives, iso3166_1_alpha2, ...) is enforced by Bind
// but does not appear in the schema. Bind also validates struct elements of
// slices and maps as if "dive" were given, because the schema describes
// them.
//
// mcp: titles=A|B|C gives display titles to enum values in [Elicitation]
// forms. For ignores it.
//
// # Presence decides, not the zero value
//
// The validator's omitempty and omitzero skip a zero value, and in a
// decoded struct a member left out and a member sent as 0, "" or false
// look the same. Bind goes by the arguments instead: a member that is
// present (and not null) is checked by every rule of its tag, so
// validate:"omitempty,min=1,max=50" rejects {"limit":0} as the published
// "minimum": 1 says, and validate:"omitempty,oneof=a b" rejects "". Left
// out, or sent as null, the member is absent: the rules are skipped and it
// gets its default. Elements of slices and maps are always present, so
// omitempty after dive skips nothing. Rules that compare with other fields
// (eqfield, required_if, ...) need the whole struct and still follow the
// validator, which skips them for a zero value under omitempty.
//
// # Known differences between the schema and Bind
//
// The validator is the authority. The schema matches it for every mirrored
// rule, and Bind accepts exactly what the published schema accepts (tests
// check each rule, and every zoo type over generated arguments, against a
// JSON Schema 2020-12 validator), except:
//
//   - An optional member sent as null counts as absent (and gets its
//     default) although the schema does not list null.
//   - JSON Schema accepts 1.0 as an integer; the decoder does not.
//   - Numbers outside the range of a 64-bit integer or of a float32 field,
//     and numbers sent as strings outside the range of their Go type, are
//     refused by the decoder; the schema states no range there.
//   - Validator rules with no schema equivalent (a|b alternatives,
//     cross-field rules, unmirrored rules such as iso3166_1_alpha2, and any
//     rule on a number sent as a string) are enforced but not published.
//   - A type with its own UnmarshalText method (net.IP, ...) decides which
//     strings it takes; the schema says only "string".
//   - email, url/uri, ip and datetime checks are the validator's (Go's
//     parsers), which differ from JSON Schema format checkers at the
//     edges (for example "/path" passes validate:"uri" but not format
//     uri, "http://" passes format uri but not validate:"url", and some
//     checkers accept "@example.com" as an email); lowercase/uppercase
//     use Unicode letter classes where the validator compares with
//     strings.ToLower/ToUpper.
package schema
