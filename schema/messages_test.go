package schema_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

// The message zoo: each constraint written three ways (a validate rule, a
// jsonschema tag, a hand-written JSON Schema) must be worded the same.

type MsgValidate struct {
	Name  string            `json:"name" validate:"required,min=1,max=3"`
	One   string            `json:"one,omitempty" validate:"omitempty,min=2"`
	Size  string            `json:"size,omitempty" validate:"omitempty,oneof=small 'extra large'"`
	Level int               `json:"level,omitempty" validate:"omitempty,oneof=1 2 3"`
	Qty   int               `json:"qty,omitempty" validate:"omitempty,gte=1,lte=50"`
	Ratio float64           `json:"ratio,omitempty" validate:"omitempty,gt=0,lt=1"`
	Tags  []string          `json:"tags,omitempty" validate:"omitempty,min=1,max=1,dive,min=1"`
	Map   map[string]string `json:"map,omitempty" validate:"omitempty,min=1,max=1"`
	Code  string            `json:"code,omitempty" validate:"omitempty,len=1"`
	Mail  string            `json:"mail,omitempty" validate:"omitempty,email"`
	ISBN  string            `json:"isbn,omitempty" validate:"omitempty,isbn13"`
}

type MsgTags struct {
	Name  string   `json:"name" jsonschema:"minLength=1,maxLength=3"`
	One   string   `json:"one,omitempty" jsonschema:"minLength=2"`
	Size  string   `json:"size,omitempty" jsonschema:"enum=small,enum=extra large"`
	Level int      `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
	Qty   int      `json:"qty,omitempty" jsonschema:"minimum=1,maximum=50"`
	Ratio float64  `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Tags  []string `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=1"`
}

const msgRawSchema = `{"type":"object","properties":{
 "name":{"type":"string","minLength":1,"maxLength":3},
 "one":{"type":"string","minLength":2},
 "size":{"type":"string","enum":["small","extra large"]},
 "level":{"type":"integer","enum":[1,2,3]},
 "qty":{"type":"integer","minimum":1,"maximum":50},
 "ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
 "tags":{"type":"array","items":{"type":"string","minLength":1},"minItems":1,"maxItems":1},
 "map":{"type":"object","additionalProperties":{"type":"string"},"minProperties":1,"maxProperties":1},
 "code":{"type":"string","minLength":1,"maxLength":1}
},"required":["name"],"additionalProperties":false}`

var updateMessages = flag.Bool("update-messages", false, "rewrite testdata/messages.golden")

// TestMessages pins the wording of every validation message. Each row's
// arguments go to each way of stating the constraint that supports it;
// all must give the same message, and the messages are kept in
// testdata/messages.golden.
func TestMessages(t *testing.T) {
	validate := mustFor(t, reflect.TypeFor[MsgValidate](), schema.Options{Strict: true})
	tags := mustFor(t, reflect.TypeFor[MsgTags](), schema.Options{Strict: true})
	raw, err := schema.FromJSON([]byte(msgRawSchema), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]*schema.Type{"validate": validate, "tags": tags, "raw": raw}
	rows := []struct {
		name string
		args string
		in   string // which of validate, tags, raw state the constraint
	}{
		{"missing", `{}`, "validate tags raw"},
		{"unknown", `{"name":"a","x":1}`, "raw"},
		{"wrong type", `{"name":7}`, "validate tags raw"},
		{"null", `{"name":null}`, "validate tags raw"},
		{"empty required", `{"name":""}`, "validate"},
		{"min 1 character", `{"name":"","one":"a"}`, "tags raw"},
		{"min 2 characters", `{"name":"a","one":"a"}`, "validate tags raw"},
		{"max characters", `{"name":"abcd"}`, "validate tags raw"},
		{"exactly 1 character", `{"name":"a","code":"ab"}`, "validate"},
		{"oneof strings", `{"name":"a","size":"big"}`, "validate tags raw"},
		{"oneof integers", `{"name":"a","level":4}`, "validate tags raw"},
		{"minimum", `{"name":"a","qty":0}`, "validate tags raw"},
		{"maximum", `{"name":"a","qty":51}`, "validate tags raw"},
		{"exclusive minimum", `{"name":"a","ratio":0}`, "validate tags raw"},
		{"exclusive maximum", `{"name":"a","ratio":1}`, "validate tags raw"},
		{"min 1 item", `{"name":"a","tags":[]}`, "validate tags raw"},
		{"max 1 item", `{"name":"a","tags":["a","b"]}`, "validate tags raw"},
		{"item min 1 character", `{"name":"a","tags":[""]}`, "validate raw"},
		{"min 1 entry", `{"name":"a","map":{}}`, "validate raw"},
		{"max 1 entry", `{"name":"a","map":{"a":"1","b":"2"}}`, "validate raw"},
		{"format", `{"name":"a","mail":"nope"}`, "validate"},
		{"rule without wording", `{"name":"a","isbn":"nope"}`, "validate"},
		{"several", `{"name":"abcd","qty":0,"size":"big"}`, "validate tags raw"},
	}
	var golden strings.Builder
	for _, r := range rows {
		msg := ""
		for _, k := range strings.Fields(r.in) {
			_, err := kinds[k].Bind(json.RawMessage(r.args))
			verr, ok := errors.AsType[*schema.ValidationError](err)
			if !ok {
				t.Errorf("%s (%s): %s: got %v, want a *ValidationError", r.name, k, r.args, err)
				continue
			}
			got := verr.Error()
			if strings.Contains(got, "(rule") {
				t.Errorf("%s (%s): message names its rule: %s", r.name, k, got)
			}
			if msg == "" {
				msg = got
			} else if got != msg {
				t.Errorf("%s: %s words it %q, the first %q", r.name, k, got, msg)
			}
		}
		golden.WriteString(r.name + "\t" + r.args + "\n\t" + msg + "\n")
	}
	file := filepath.Join("testdata", "messages.golden")
	if *updateMessages {
		if err := os.WriteFile(file, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -run TestMessages -update-messages to create it)", err)
	}
	if golden.String() != string(want) {
		t.Errorf("messages differ from %s (run go test -run TestMessages -update-messages if intended)\ngot:\n%s\nwant:\n%s", file, golden.String(), want)
	}
}

// TestMessageRequiredNull: a required member that may hold null in Go (a
// pointer, an interface) and is sent as null reads like any other null,
// not as the bare rule name.
func TestMessageRequiredNull(t *testing.T) {
	type args struct {
		P *int `json:"p" validate:"required"`
		A any  `json:"a" validate:"required"`
	}
	ty := mustFor(t, reflect.TypeFor[args](), schema.Options{})
	for _, r := range []struct{ args, want string }{
		{`{"p":null,"a":1}`, "p: must be integer, got null"},
		{`{"p":1,"a":null}`, "a: must not be null"},
	} {
		_, err := ty.Bind(json.RawMessage(r.args))
		if err == nil || err.Error() != r.want {
			t.Errorf("%s: got %v, want %q", r.args, err, r.want)
		}
	}
}
