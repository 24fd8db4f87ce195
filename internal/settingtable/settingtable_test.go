package settingtable_test

import (
	"flag"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/settingtable"
)

// conf is a settings struct with one setting of each kind.
type conf struct {
	Name    string
	On      bool
	Tags    []string
	Wait    time.Duration
	Max     int
	Size    int64
	Secret  string
	Derived string
}

var table = settingtable.Table[*conf]{EnvPrefix: "TEST_", ErrPrefix: "test: ", Rows: []settingtable.Row[*conf]{
	settingtable.Text("name", "Name", func(c *conf) *string { return &c.Name }).WithCheck(func(c *conf, given settingtable.Given) string {
		if c.Name == "bad" {
			return "use another name"
		}
		c.Derived = c.Name + "+"
		if given["extra"] {
			c.Derived += "extra"
		}
		return ""
	}).Doc("a name", "anon"),
	settingtable.Bool("on", "On", func(c *conf) *bool { return &c.On }),
	settingtable.List("tags", "Tags", func(c *conf) *[]string { return &c.Tags }),
	settingtable.Limit("wait", "Wait", func(c *conf) *time.Duration { return &c.Wait }, 5*time.Second, "10s", settingtable.Duration),
	settingtable.Limit("max-items", "Max", func(c *conf) *int { return &c.Max }, 100, "7", strconv.Atoi),
	settingtable.Size("size", "Size", func(c *conf) *int64 { return &c.Size }, 1024),
	{Name: "secret", Option: "Secret", Secret: true, Parse: func(c *conf, v string) string {
		if !strings.HasPrefix(v, "s-") {
			return "start it with s-"
		}
		c.Secret = v
		return ""
	}},
}}

// TestResolve: each source over the ones below it (option > flag >
// variable > default), each kind of row's text, and errors that name the
// setting, its source and what it accepts.
func TestResolve(t *testing.T) {
	defaults := conf{Wait: 5 * time.Second, Max: 100, Size: 1024, Derived: "+"}
	for _, tc := range []struct {
		name  string
		opt   conf
		given settingtable.Given
		flags []string
		env   map[string]string
		want  conf
		err   string // every error, joined by "\n"
	}{
		{name: "defaults", want: defaults},
		{name: "variables", env: map[string]string{"TEST_NAME": "e", "TEST_ON": "1", "TEST_TAGS": " a, ,b ", "TEST_WAIT": "none", "TEST_MAX_ITEMS": "3", "TEST_SIZE": "9", "TEST_SECRET": "s-x"},
			want: conf{Name: "e", On: true, Tags: []string{"a", "b"}, Wait: -1, Max: 3, Size: 9, Secret: "s-x", Derived: "e+"}},
		{name: "an empty variable is no value", env: map[string]string{"TEST_NAME": "", "TEST_MAX_ITEMS": ""}, want: defaults},
		{name: "flag over variable", flags: []string{"-name=f", "-max-items=none"}, env: map[string]string{"TEST_NAME": "e", "TEST_MAX_ITEMS": "3"},
			want: conf{Name: "f", Wait: 5 * time.Second, Max: -1, Size: 1024, Derived: "f+"}},
		{name: "option over flag", opt: conf{Name: "o", Max: -7}, given: settingtable.Given{"name": true, "max-items": true, "extra": true},
			flags: []string{"-name=f", "-max-items=3"},
			want:  conf{Name: "o", Wait: 5 * time.Second, Max: -1, Size: 1024, Derived: "o+extra"}},
		{name: "an option not given leaves the row to the others", opt: conf{Name: "o"}, env: map[string]string{"TEST_NAME": "e"},
			want: conf{Name: "e", Wait: 5 * time.Second, Max: 100, Size: 1024, Derived: "e+"}},
		{name: "bad texts", flags: []string{"-on=maybe"}, env: map[string]string{"TEST_WAIT": "0s", "TEST_MAX_ITEMS": "x", "TEST_SIZE": "-1", "TEST_SECRET": "password"},
			err: `test: setting flag -on="maybe" is invalid: use true or false` + "\n" +
				`test: setting TEST_WAIT="0s" is invalid: use a positive value such as 10s, or none for no limit` + "\n" +
				`test: setting TEST_MAX_ITEMS="x" is invalid: use a positive value such as 7, or none for no limit` + "\n" +
				`test: setting TEST_SIZE="-1" is invalid: use a positive number of bytes, such as 65536` + "\n" +
				`test: setting TEST_SECRET is invalid: start it with s-`},
		{name: "a check names the option that gave the value", opt: conf{Name: "bad"}, given: settingtable.Given{"name": true},
			err: `test: setting option Name="bad" is invalid: use another name`},
		{name: "a check names the variable that gave the value", env: map[string]string{"TEST_NAME": "bad"},
			err: `test: setting TEST_NAME="bad" is invalid: use another name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			table.Register(fs)
			if err := fs.Parse(tc.flags); err != nil {
				t.Fatal(err)
			}
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			got := tc.opt
			err := table.Resolve(&got, tc.given, fs, lookup)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Resolve error\n got %v\nwant %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Resolve = %+v\n     want %+v", got, tc.want)
			}
		})
	}
}

// TestRegister: every row is a flag whose usage names its variable and
// default; unparsed flags are not read.
func TestRegister(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	table.Register(fs)
	f := fs.Lookup("name")
	if f == nil || f.Usage != "a name (env TEST_NAME, default anon)" {
		t.Fatalf("flag -name: %+v", f)
	}
	if f := fs.Lookup("max-items"); f == nil || f.Usage != " (env TEST_MAX_ITEMS)" {
		t.Fatalf("flag -max-items: %+v", f)
	}
	var got conf
	err := table.Resolve(&got, nil, fs, func(string) (string, bool) { return "", false })
	if err != nil || got.Max != 100 {
		t.Fatalf("Resolve before Parse = %+v, %v", got, err)
	}
}

// TestFrom: From names the source Resolve would take a row's value from.
func TestFrom(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	table.Register(fs)
	if err := fs.Parse([]string{"-on=true"}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TEST_ON": "false", "TEST_TAGS": "a", "TEST_WAIT": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for name, want := range map[string]string{"name": "option Name", "on": "flag -on", "tags": "TEST_TAGS", "wait": "", "nope": ""} {
		if got := table.From(name, settingtable.Given{"name": true}, fs, lookup); got != want {
			t.Errorf("From(%q) = %q, want %q", name, got, want)
		}
	}
}
