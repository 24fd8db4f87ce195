package skills_test

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/skills"
)

// TestLoadRefusesMismatches tampers with the entry the server listed,
// which is what a client sees when the served files differ from it: every
// mismatch is a *skills.VerificationError naming what differed.
func TestLoadRefusesMismatches(t *testing.T) {
	t.Parallel()
	s := newServer()
	mustAddFS(t, s, skillsFS())
	c := connect(t, s)
	const uri = "skill://pdf-processing/SKILL.md"
	const forms = "skill://pdf-processing/references/FORMS.md"
	for _, tc := range []struct {
		name   string
		tamper func(e *protocol.SkillEntry)
		file   string // "" loads the skill
		want   skills.Mismatch
		field  string
	}{
		{"manifest size", func(e *protocol.SkillEntry) { fileOf(e, uri).Size++ }, "", skills.SizeMismatch, ""},
		{"manifest digest", func(e *protocol.SkillEntry) { fileOf(e, uri).Digest = digest([]byte("other")) }, "", skills.DigestMismatch, ""},
		{"description", func(e *protocol.SkillEntry) { e.Frontmatter["description"] = "Exfiltrate credentials" }, "", skills.FrontmatterMismatch, "description"},
		{"extra field", func(e *protocol.SkillEntry) { e.Frontmatter["license"] = "MIT" }, "", skills.FrontmatterMismatch, "license"},
		{"nested metadata", func(e *protocol.SkillEntry) { e.Frontmatter["metadata"].(map[string]any)["version"] = 3.0 }, "", skills.FrontmatterMismatch, "metadata"},
		{"supporting file digest", func(e *protocol.SkillEntry) { fileOf(e, forms).Digest = digest(nil) }, forms, skills.DigestMismatch, ""},
		{"unlisted file", func(e *protocol.SkillEntry) {}, "skill://pdf-processing/../secret", skills.NotListed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := ctxT(t)
			e, err := skills.Get(ctx, c, uri)
			if err != nil {
				t.Fatal(err)
			}
			tc.tamper(e)
			if tc.file == "" {
				_, err = skills.Load(ctx, c, e)
			} else {
				_, err = skills.ReadFile(ctx, c, e, tc.file)
			}
			verr, ok := errors.AsType[*skills.VerificationError](err)
			if !ok {
				t.Fatalf("err = %v, want a *skills.VerificationError", err)
			}
			if verr.Mismatch != tc.want || verr.Field != tc.field || !errors.Is(err, skills.ErrVerification) {
				t.Errorf("err = %+v, want mismatch %s field %q", verr, tc.want, tc.field)
			}
		})
	}
}

func fileOf(e *protocol.SkillEntry, uri string) *protocol.SkillFile {
	for i := range e.Resources.Files {
		if e.Resources.Files[i].URI == uri {
			return &e.Resources.Files[i]
		}
	}
	panic("no file " + uri)
}

// TestLoadDynamic loads a skill whose entry publishes no file list:
// the frontmatter is still compared, files outside the skill are refused.
func TestLoadDynamic(t *testing.T) {
	t.Parallel()
	s := newServer()
	mustAdd(t, s, "pdf-processing", fstest.MapFS{"SKILL.md": {Data: []byte(pdfSkill)}, "references/FORMS.md": {Data: []byte(formsDoc)}})
	c := connect(t, s)
	ctx := ctxT(t)
	e, err := skills.Get(ctx, c, "skill://pdf-processing/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	e.Resources = protocol.SkillResources{Dynamic: true}
	if _, err := skills.Load(ctx, c, e); err != nil {
		t.Fatal(err)
	}
	if b, err := skills.ReadFile(ctx, c, e, "skill://pdf-processing/references/FORMS.md"); err != nil || string(b) != formsDoc {
		t.Errorf("dynamic read = %q, %v", b, err)
	}
	if _, err := skills.ReadFile(ctx, c, e, "skill://other/SKILL.md"); !errors.Is(err, skills.ErrVerification) {
		t.Errorf("read outside the skill: %v", err)
	}
	e.Resources = protocol.SkillResources{} // omitted, as an earlier draft allowed: unverifiable too
	if _, err := skills.Load(ctx, c, e); err != nil {
		t.Errorf("omitted resources: %v", err)
	}
	e.Frontmatter["name"] = "renamed"
	if _, err := skills.Load(ctx, c, e); !errors.Is(err, skills.ErrVerification) {
		t.Errorf("renamed: %v", err)
	}
}

func TestSkillResourcesJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		dynamic bool
		files   int
		bad     bool
	}{
		{`"dynamic"`, true, 0, false},
		{`[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":1}]`, false, 1, false},
		{`[]`, false, 0, false},
		{`"static"`, false, 0, true},
		{`null`, false, 0, true},
		{`{}`, false, 0, true},
	} {
		var r protocol.SkillResources
		err := protocol.Unmarshal([]byte(tc.in), &r)
		if (err != nil) != tc.bad || r.Dynamic != tc.dynamic || len(r.Files) != tc.files {
			t.Errorf("%s: %+v, %v", tc.in, r, err)
		}
		if err != nil {
			continue
		}
		out, err := protocol.Marshal(r)
		if err != nil || (tc.in != `[]` && string(out) != tc.in && !r.Dynamic && tc.files == 0) {
			t.Errorf("%s: marshal %s, %v", tc.in, out, err)
		}
	}
}
