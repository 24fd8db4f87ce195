package skills_test

import (
	"errors"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/skills"
)

func TestParseSkillFrontmatter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc string
		want      string // the frontmatter's JSON; "" for an error
	}{
		{"plain", "---\nname: a\ndescription: d\n---\nbody", `{"description":"d","name":"a"}`},
		{"crlf and bom", "\ufeff---\r\nname: a\r\ndescription: d\r\n---\r\n", `{"description":"d","name":"a"}`},
		{"closing at eof", "---\nname: a\n---", `{"name":"a"}`},
		{"closing with trailing spaces", "---\nname: a\n---  \nbody", `{"name":"a"}`},
		{"nested", "---\nname: a\nmetadata:\n  n: 2\n  f: 1.5\n  l: [x, true, null]\n---\n", `{"metadata":{"f":1.5,"l":["x",true,null],"n":2},"name":"a"}`},
		{"date stays a string", "---\ncreated: 2026-01-02\n---\n", `{"created":"2026-01-02"}`},
		{"no frontmatter", "# title\n", ""},
		{"not at the start", "\n---\nname: a\n---\n", ""},
		{"unclosed", "---\nname: a\n", ""},
		{"empty", "---\n---\n", ""},
		{"scalar", "---\nhello\n---\n", ""},
		{"non-string key", "---\n1: a\n---\n", ""},
		{"invalid yaml", "---\nname: [a\n---\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, err := skills.ParseFrontmatter([]byte(tc.doc))
			if tc.want == "" {
				if err == nil {
					t.Fatalf("parsed %v, want an error", fm)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := protocol.Marshal(fm)
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := skills.ParseFrontmatter([]byte("# x")); !errors.Is(err, skills.ErrNoFrontmatter) {
		t.Errorf("no frontmatter: %v", err)
	}
}

// FuzzParseSkillFrontmatter: the parser never panics, and what it accepts
// encodes as JSON and is stable when parsed again from its own YAML.
func FuzzParseSkillFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: d\n---\nbody",
		"\ufeff---\r\nname: a\r\n---\r\n",
		"---\nmetadata:\n  k: [1, 2.5, null, true]\n---\n",
		"---\n? [a]\n: b\n---\n",
		"---\na: &x 1\nb: *x\n---\n",
		"---\n---\n",
		"---",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		fm, err := skills.ParseFrontmatter(doc)
		if err != nil {
			return
		}
		if fm == nil {
			t.Fatal("nil frontmatter without an error")
		}
		if _, err := protocol.Marshal(fm); err != nil {
			t.Fatalf("accepted frontmatter does not encode as JSON: %v", err)
		}
		_ = skills.ValidateFrontmatter(fm)
	})
}
