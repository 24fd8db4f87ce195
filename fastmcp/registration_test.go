package fastmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// registerErr runs a registration (s.Tool, s.Prompt, s.Resource, s.Mount)
// and returns the error it panicked with, or nil when it did not panic. A
// panic whose value is not an error matching fastmcp.ErrRegistration fails
// the test.
func registerErr(t testing.TB, register func()) (err error) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		e, ok := r.(error)
		if !ok || !errors.Is(e, fastmcp.ErrRegistration) {
			t.Errorf("the registration panicked with %T %v, want an error matching fastmcp.ErrRegistration", r, r)
			err = errors.New("(not a registration error)")
			return
		}
		err = e
	}()
	register()
	return nil
}

// TestRegistrationPanicsOnly: each registration has one method, the
// panicking one (issue 31 item 12: no AddTool twin returning the same
// error). Its panic value is an error with the message as before, matching
// ErrRegistration and wrapping the cause, so code that registers from data
// recovers it and reaches the cause with errors.Is and errors.As.
func TestRegistrationPanicsOnly(t *testing.T) {
	t.Parallel()
	server := reflect.TypeFor[*fastmcp.Server]()
	for _, name := range []string{"Tool", "Prompt", "Resource", "Mount"} {
		if _, ok := server.MethodByName(name); !ok {
			t.Errorf("Server.%s is missing", name)
		}
		if _, ok := server.MethodByName("Add" + name); ok {
			t.Errorf("Server.Add%s is exported: one registration method (Server.%s, which panics) is enough", name, name)
		}
	}

	s := fastmcp.New("reg", "1")
	s.Tool("add", func(struct{}) int { return 0 })
	var r any
	func() {
		defer func() { r = recover() }()
		s.Tool("add", func(struct{}) int { return 0 })
	}()
	err, ok := r.(error)
	if !ok {
		t.Fatalf("Tool panicked with %T %v, want an error", r, r)
	}
	const want = `fastmcp: tool "add" is already registered: choose another name or call RemoveTool first`
	if err.Error() != want || !errors.Is(err, fastmcp.ErrRegistration) {
		t.Errorf("panic = %q (matches ErrRegistration: %v), want %q matching it", err, errors.Is(err, fastmcp.ErrRegistration), want)
	}
	if cause := errors.Unwrap(err); cause == nil || cause.Error() != want || errors.Is(cause, fastmcp.ErrRegistration) {
		t.Errorf("the panic wraps %v, want the registration's own error", cause)
	}
	// The cause's own sentinels stay reachable (TestAppsRegistrationErrors
	// checks apps.ErrInvalidView through the panic).
}

// handlerOf is a tool handler taking arguments of type T.
func handlerOf[T any]() any {
	return func(context.Context, T) (string, error) { return "", nil }
}

// Argument types whose tags say one thing twice, differently (issue 31
// item 1), or use a key no one reads (item 2), and ones that stay fine.
type (
	enumVsOneOf struct {
		Color string `json:"color" jsonschema:"enum=a,enum=b" validate:"oneof=a c"`
	}
	enumSameSet struct {
		Color string `json:"color" jsonschema:"enum=a,enum=b" validate:"oneof=b a"`
	}
	minimumVsMin struct {
		N int `json:"n" jsonschema:"minimum=3" validate:"min=5"`
	}
	minimumVsGt struct {
		N int `json:"n" jsonschema:"minimum=3" validate:"gt=2"`
	}
	minimumSame struct {
		X float64 `json:"x" jsonschema:"minimum=3,maximum=1e1" validate:"gte=3.0,lte=10"`
	}
	maximumVsLte struct {
		N int `json:"n" jsonschema:"maximum=10" validate:"lte=9"`
	}
	exclusiveVsLt struct {
		X float64 `json:"x" jsonschema:"exclusiveMaximum=1" validate:"lt=2"`
	}
	minLengthVsMin struct {
		S string `json:"s" jsonschema:"minLength=2" validate:"min=3"`
	}
	maxLengthVsLen struct {
		S string `json:"s" jsonschema:"maxLength=5" validate:"len=4"`
	}
	minItemsVsMin struct {
		L []string `json:"l" jsonschema:"minItems=1" validate:"min=2"`
	}
	maxItemsSame struct {
		L []string `json:"l" jsonschema:"maxItems=3" validate:"max=3"`
	}
	itemsEnumVsDive struct {
		Tags []string `json:"tags" jsonschema:"enum=x,enum=y" validate:"dive,oneof=x z"`
	}
	formatVsURL struct {
		Site string `json:"site" jsonschema:"format=email" validate:"url"`
	}
	formatSame struct {
		Mail string `json:"mail" jsonschema:"format=email,pattern=^[a-z@.]+$" validate:"email,lowercase"`
	}
	enumVsEq struct {
		Mode string `json:"mode" jsonschema:"enum=on" validate:"eq=on"`
	}
	requiredVsOmitempty struct {
		N int `json:"n" jsonschema:"required" validate:"omitempty,min=1"`
	}
	requiredVsDefault struct {
		N int `json:"n,omitempty" jsonschema:"required,default=3"`
	}
	nullableVsRequired struct {
		P *int `json:"p" jsonschema:"nullable" validate:"required"`
	}
	misspelledKey struct {
		N int `json:"n" jsonschema:"minimun=3"`
	}
	misspelledCase struct {
		S string `json:"s" jsonschema:"MinLength=2"`
	}
	misspelledFlag struct {
		S string `json:"s,omitempty" jsonschema:"requried"`
	}
	unknownKey struct {
		S string `json:"s" jsonschema:"foo=1"`
	}
	bareDescription struct {
		Name string `json:"name" jsonschema:"who to greet"`
	}
	unescapedComma struct {
		Q string `json:"q" jsonschema:"description=the quarter, like 2026-Q3"`
	}
	flagWithValue struct {
		S string `json:"s,omitempty" jsonschema:"required=true"`
	}
	keyWithoutValue struct {
		L []int `json:"l" jsonschema:"uniqueItems"`
	}
	knownKeys struct {
		S string `json:"s" jsonschema:"title=T,description=D\\, with a comma,example=x,readOnly=false,anchor=a,nullable,required"`
		N int    `json:"n,omitempty" jsonschema:"type=integer,minLength=2,multipleOf=3,default=3"`
		L []int  `json:"l" jsonschema:"uniqueItems=true,minItems=1,enum=1,enum=2"`
	}
)

// TestAddToolRefusesDisagreeingTags checks that a tool whose argument
// tags disagree with each other, or use an unknown jsonschema key, is
// refused at registration with a message that names the struct, the
// field, the tags and the fix, and that tags that agree, or use the keys
// invopop/jsonschema reads, register.
func TestAddToolRefusesDisagreeingTags(t *testing.T) {
	t.Parallel()
	const p = `fastmcp: tool "t": schema: type fastmcp_test.`
	for _, tc := range []struct {
		name string
		fn   any
		want string // "" if the tool registers
	}{
		{"enum against oneof", handlerOf[enumVsOneOf](),
			p + `enumVsOneOf: field fastmcp_test.enumVsOneOf.Color: jsonschema tag enum=a,enum=b and validate rule oneof=a c disagree about the values: remove the jsonschema enum (the validate rule is published as well) or make the two say the same`},
		{"enum and oneof of one set", handlerOf[enumSameSet](), ""},
		{"minimum against min", handlerOf[minimumVsMin](),
			p + `minimumVsMin: field fastmcp_test.minimumVsMin.N: jsonschema tag minimum=3 and validate rule min=5 disagree about the lower bound: remove the jsonschema minimum (the validate rule is published as well) or make the two say the same`},
		{"minimum against gt", handlerOf[minimumVsGt](),
			p + `minimumVsGt: field fastmcp_test.minimumVsGt.N: jsonschema tag minimum=3 and validate rule gt=2 disagree about the lower bound: remove the jsonschema minimum (the validate rule is published as well) or make the two say the same`},
		{"the same bounds", handlerOf[minimumSame](), ""},
		{"maximum against lte", handlerOf[maximumVsLte](),
			p + `maximumVsLte: field fastmcp_test.maximumVsLte.N: jsonschema tag maximum=10 and validate rule lte=9 disagree about the upper bound: remove the jsonschema maximum (the validate rule is published as well) or make the two say the same`},
		{"exclusiveMaximum against lt", handlerOf[exclusiveVsLt](),
			p + `exclusiveVsLt: field fastmcp_test.exclusiveVsLt.X: jsonschema tag exclusiveMaximum=1 and validate rule lt=2 disagree about the upper bound: remove the jsonschema exclusiveMaximum (the validate rule is published as well) or make the two say the same`},
		{"minLength against min", handlerOf[minLengthVsMin](),
			p + `minLengthVsMin: field fastmcp_test.minLengthVsMin.S: jsonschema tag minLength=2 and validate rule min=3 disagree about the minimum length: remove the jsonschema minLength (the validate rule is published as well) or make the two say the same`},
		{"maxLength against len", handlerOf[maxLengthVsLen](),
			p + `maxLengthVsLen: field fastmcp_test.maxLengthVsLen.S: jsonschema tag maxLength=5 and validate rule len=4 disagree about the maximum length: remove the jsonschema maxLength (the validate rule is published as well) or make the two say the same`},
		{"minItems against min", handlerOf[minItemsVsMin](),
			p + `minItemsVsMin: field fastmcp_test.minItemsVsMin.L: jsonschema tag minItems=1 and validate rule min=2 disagree about the minimum number of items: remove the jsonschema minItems (the validate rule is published as well) or make the two say the same`},
		{"the same maxItems", handlerOf[maxItemsSame](), ""},
		{"items enum against dive oneof", handlerOf[itemsEnumVsDive](),
			p + `itemsEnumVsDive: field fastmcp_test.itemsEnumVsDive.Tags: jsonschema tag enum=x,enum=y and validate rule dive,oneof=x z disagree about the values: remove the jsonschema enum (the validate rule is published as well) or make the two say the same`},
		{"format against url", handlerOf[formatVsURL](),
			p + `formatVsURL: field fastmcp_test.formatVsURL.Site: jsonschema tag format=email and validate rule url disagree about the format: remove the jsonschema format (the validate rule is published as well) or make the two say the same`},
		{"the same format, and two patterns", handlerOf[formatSame](), ""},
		{"an enum of one value and eq", handlerOf[enumVsEq](), ""},
		{"required against omitempty", handlerOf[requiredVsOmitempty](),
			p + `requiredVsOmitempty: field fastmcp_test.requiredVsOmitempty.N: jsonschema tag required and validate rule omitempty disagree: the tag says the member must be sent, the rule lets it be left out: remove one`},
		{"required against default", handlerOf[requiredVsDefault](),
			p + `requiredVsDefault: field fastmcp_test.requiredVsDefault.N: jsonschema tags required and default= disagree: a member with a default may be left out: remove required`},
		{"nullable against required", handlerOf[nullableVsRequired](),
			p + `nullableVsRequired: field fastmcp_test.nullableVsRequired.P: jsonschema tag nullable and validate rule required disagree: null counts as left out, which required refuses: remove one`},
		{"a misspelled key", handlerOf[misspelledKey](),
			p + `misspelledKey: field fastmcp_test.misspelledKey.N: unknown jsonschema key "minimun" in "minimun=3": did you mean minimum?`},
		{"a key in the wrong case", handlerOf[misspelledCase](),
			p + `misspelledCase: field fastmcp_test.misspelledCase.S: unknown jsonschema key "MinLength" in "MinLength=2": did you mean minLength?`},
		{"a misspelled flag", handlerOf[misspelledFlag](),
			p + `misspelledFlag: field fastmcp_test.misspelledFlag.S: unknown jsonschema key "requried" in "requried": did you mean required?`},
		{"an unknown key", handlerOf[unknownKey](),
			p + `unknownKey: field fastmcp_test.unknownKey.S: unknown jsonschema key "foo" in "foo=1": the keys are title, description, type, anchor, oneof_required, anyof_required, oneof_ref, oneof_type, anyof_ref, anyof_type, minLength, maxLength, pattern, format, readOnly, writeOnly, default, example, enum, multipleOf, minimum, maximum, exclusiveMaximum, exclusiveMinimum, minItems, maxItems, uniqueItems, and required or nullable alone`},
		{"a bare description", handlerOf[bareDescription](),
			p + `bareDescription: field fastmcp_test.bareDescription.Name: jsonschema tag part "who to greet" has no key: write description=who to greet for a description`},
		{"an unescaped comma", handlerOf[unescapedComma](),
			p + `unescapedComma: field fastmcp_test.unescapedComma.Q: jsonschema tag part " like 2026-Q3" has no key: if it continues the value before it, write that comma as \,`},
		{"a flag with a value", handlerOf[flagWithValue](),
			p + `flagWithValue: field fastmcp_test.flagWithValue.S: jsonschema key required takes no value: write required alone`},
		{"a key without its value", handlerOf[keyWithoutValue](),
			p + `keyWithoutValue: field fastmcp_test.keyWithoutValue.L: jsonschema key uniqueItems needs a value: write uniqueItems=value`},
		{"every form invopop/jsonschema reads", handlerOf[knownKeys](), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := fastmcp.New("reg", "1")
			err := registerErr(t, func() { s.Tool("t", tc.fn) })
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Tool panicked with:\ngot  %s\nwant %s", got, tc.want)
			}
		})
	}
}

type (
	searchBase struct {
		Region string
		Zone   string `json:"zone"`
	}
	searchArgs struct {
		searchBase
		Query  string
		UserID string `json:",omitempty"`
		Limit  int    `json:"limit"`
		Exact  bool   `json:"Exact"`
	}
)

// TestWarnsUntaggedFields checks that registering a tool or a prompt
// whose arguments have exported fields without a json name logs one
// warning per such field on the server's logger, naming the struct, the
// field and the tag to add (issue 31 item 11). The embedded struct itself
// is not named (a json name would nest its fields), a field given its Go
// name on purpose (json:"Exact") is not either, and fields of the embedded
// struct are named with it.
func TestWarnsUntaggedFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind     string
		register func(s *fastmcp.Server)
	}{
		{"tool", func(s *fastmcp.Server) { s.Tool("search", handlerOf[searchArgs]()) }},
		{"prompt", func(s *fastmcp.Server) { s.Prompt("search", func(in searchArgs) string { return in.Query }) }},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			var logs bytes.Buffer
			s := fastmcp.New("reg", "1", fastmcp.Logger(slog.New(slog.NewJSONHandler(&logs, nil))))
			if err := registerErr(t, func() { tt.register(s) }); err != nil {
				t.Fatal(err)
			}
			var got []string
			dec := json.NewDecoder(&logs)
			for dec.More() {
				var rec struct{ Level, Msg string }
				if err := dec.Decode(&rec); err != nil {
					t.Fatal(err)
				}
				got = append(got, rec.Level+" "+rec.Msg)
			}
			want := []string{
				`WARN fastmcp: ` + tt.kind + ` "search": field fastmcp_test.searchArgs.Query has no json name, so its argument is named "Query": add json:"query"`,
				`WARN fastmcp: ` + tt.kind + ` "search": field fastmcp_test.searchArgs.UserID has no json name, so its argument is named "UserID": add json:"userID,omitempty"`,
				`WARN fastmcp: ` + tt.kind + ` "search": field fastmcp_test.searchBase.Region has no json name, so its argument is named "Region": add json:"region"`,
			}
			if len(got) != len(want) {
				t.Fatalf("logged %d lines, want %d:\n%q", len(got), len(want), got)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("line %d:\ngot  %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}
