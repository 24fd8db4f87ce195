package skills_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/skills"
)

const pdfSkill = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: 2
  tags: [pdf, forms]
---

# PDF processing

Read references/FORMS.md first.
`

const formsDoc = "# Forms\n\nFill every field.\n"

// skillsFS holds two skills, one nested under a category directory, and
// a binary file.
func skillsFS() fstest.MapFS {
	return fstest.MapFS{
		"pdf-processing/SKILL.md":               {Data: []byte(pdfSkill)},
		"pdf-processing/references/FORMS.md":    {Data: []byte(formsDoc)},
		"pdf-processing/assets/logo.bin":        {Data: []byte{0xff, 0x00, 0xfe}},
		"writing/release-notes/SKILL.md":        {Data: []byte("---\nname: release-notes\ndescription: Write release notes from a changelog\n---\nBody\n")},
		"writing/release-notes/template.md":     {Data: []byte("## v{{version}}\n")},
		"writing/release-notes/my template.txt": {Data: []byte("spaces in the name\n")},
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skillsHTTP serves s over a real socket and connects a client in era.
func skillsHTTP(t *testing.T, s *fastmcp.Server, era client.Option) *client.Client {
	t.Helper()
	return fastmcptest.NewHTTPClient(t, s, era, client.WithLogger(quietLogger))
}

func TestSkillsEndToEnd(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s := newServer()
		mustAddFS(t, s, skillsFS())
		c := skillsHTTP(t, s, era)
		ctx := ctxT(t)

		if _, ok := c.ServerCapabilities().Extensions[protocol.ExtensionSkills]; !ok {
			t.Fatalf("extensions = %v, want %s", c.ServerCapabilities().Extensions, protocol.ExtensionSkills)
		}
		if c.ServerCapabilities().Resources == nil {
			t.Fatal("the server declares skills without resources")
		}
		page, err := skills.List(ctx, c, "")
		if err != nil {
			t.Fatal(err)
		}
		if modern && (page.TTLMs == nil || page.CacheScope == "") {
			t.Errorf("modern skills/list lacks ttlMs/cacheScope: %+v", page)
		}
		var uris []string
		for _, e := range page.Skills {
			uris = append(uris, e.URI)
		}
		want := []string{"skill://pdf-processing/SKILL.md", "skill://writing/release-notes/SKILL.md"}
		if fmt.Sprint(uris) != fmt.Sprint(want) {
			t.Fatalf("skills = %v, want %v", uris, want)
		}
		pdf := page.Skills[0]
		if pdf.Frontmatter["description"] != "Extract, fill, and assemble PDF documents" {
			t.Errorf("frontmatter = %v", pdf.Frontmatter)
		}
		files := map[string]protocol.SkillFile{}
		for _, f := range pdf.Resources.Files {
			files[f.URI] = f
		}
		forms := files["skill://pdf-processing/references/FORMS.md"]
		if forms.Digest != digest([]byte(formsDoc)) || forms.Size != int64(len(formsDoc)) {
			t.Errorf("FORMS.md entry = %+v", forms)
		}
		if len(files) != 3 || files[pdf.URI].Size != int64(len(pdfSkill)) {
			t.Errorf("files = %v", files)
		}

		got, err := skills.Get(ctx, c, pdf.URI)
		if err != nil {
			t.Fatal(err)
		}
		if got.URI != pdf.URI || len(got.Resources.Files) != 3 {
			t.Errorf("skills/get = %+v", got)
		}
		if _, err := skills.Get(ctx, c, "skill://nope/SKILL.md"); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("skills/get of an unknown skill: %v, want invalid params", err)
		}

		loaded, err := skills.Load(ctx, c, pdf)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Name() != "pdf-processing" || string(loaded.Manifest) != pdfSkill {
			t.Errorf("loaded = %q %q", loaded.Name(), loaded.Manifest)
		}
		for uri, want := range map[string]string{
			"skill://pdf-processing/references/FORMS.md": formsDoc,
			"skill://pdf-processing/assets/logo.bin":     "\xff\x00\xfe",
		} {
			b, err := skills.ReadFile(ctx, c, pdf, uri)
			if err != nil || string(b) != want {
				t.Errorf("ReadSkillFile(%s) = %q, %v", uri, b, err)
			}
		}
		notes, err := skills.Get(ctx, c, "skill://writing/release-notes/SKILL.md")
		if err != nil {
			t.Fatal(err)
		}
		if b, err := skills.ReadFile(ctx, c, notes, "skill://writing/release-notes/my%20template.txt"); err != nil || string(b) != "spaces in the name\n" {
			t.Errorf("escaped file name: %q, %v", b, err)
		}
		if kids, err := skills.ReadDir(ctx, c, "skill://writing/release-notes"); err != nil || !slices.ContainsFunc(kids, func(r *protocol.Resource) bool { return r.Name == "my template.txt" }) {
			t.Errorf("directory names are unescaped: %v, %v", kids, err)
		}

		// SKILL.md is a listed resource, named and described by its frontmatter.
		var listed *protocol.Resource
		for r, err := range c.Resources(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			if r.URI == pdf.URI {
				listed = r
			}
		}
		if listed == nil || listed.Name != "pdf-processing" || listed.MIMEType != "text/markdown" || listed.Description != "Extract, fill, and assemble PDF documents" {
			t.Errorf("listed SKILL.md = %+v", listed)
		}

		children, err := skills.ReadDir(ctx, c, "skill://pdf-processing")
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, r := range children {
			kinds[r.URI] = r.MIMEType
		}
		if kinds["skill://pdf-processing/references"] != protocol.MIMETypeDirectory || kinds[pdf.URI] != "text/markdown" || len(kinds) != 3 {
			t.Errorf("directory read = %v", kinds)
		}
		if sub, err := skills.ReadDir(ctx, c, "skill://pdf-processing/references"); err != nil || len(sub) != 1 || sub[0].Name != "FORMS.md" {
			t.Errorf("subdirectory read = %v, %v", sub, err)
		}
		if _, err := skills.ReadDir(ctx, c, pdf.URI); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("directory read of a file: %v, want invalid params", err)
		}
		if l, err := skills.LoadURI(ctx, c, "skill://writing/release-notes/SKILL.md"); err != nil || l.Description() != "Write release notes from a changelog" {
			t.Errorf("LoadSkillURI = %+v, %v", l, err)
		}
	})
}

func TestSkillSingle(t *testing.T) {
	t.Parallel()
	s := newServer()
	sub := fstest.MapFS{"SKILL.md": {Data: []byte(pdfSkill)}, "references/FORMS.md": {Data: []byte(formsDoc)}}
	mustAdd(t, s, "pdf-processing", sub)
	c := connect(t, s)
	e, err := skills.Get(ctxT(t), c, "skill://pdf-processing/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := skills.Load(ctxT(t), c, e); err != nil {
		t.Fatal(err)
	}
	if err := skills.Add(s, "pdf-processing", sub); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("second AddSkill: %v", err)
	}
	if !skills.Remove(s, "pdf-processing") || skills.Remove(s, "pdf-processing") {
		t.Error("RemoveSkill did not remove exactly once")
	}
	if _, err := skills.Get(ctxT(t), c, "skill://pdf-processing/SKILL.md"); !errors.Is(err, protocol.ErrInvalidParams) {
		t.Errorf("after RemoveSkill: %v", err)
	}
}

func TestSkillRegistrationErrors(t *testing.T) {
	t.Parallel()
	manifest := func(fm string) *fstest.MapFile { return &fstest.MapFile{Data: []byte("---\n" + fm + "---\nbody\n")} }
	many := fstest.MapFS{"big/SKILL.md": manifest("name: big\ndescription: d\n")}
	for i := range skills.MaxFiles {
		many[fmt.Sprintf("big/f%03d.txt", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"no skills", fstest.MapFS{"README.md": {Data: []byte("hi")}}, "no SKILL.md found"},
		{"no frontmatter", fstest.MapFS{"a/SKILL.md": {Data: []byte("# just markdown\n")}}, "frontmatter"},
		{"unclosed frontmatter", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n")}}, "frontmatter"},
		{"bad yaml", fstest.MapFS{"a/SKILL.md": manifest("name: [a\n")}, "frontmatter"},
		{"not a mapping", fstest.MapFS{"a/SKILL.md": manifest("- a\n- b\n")}, "not a mapping"},
		{"no name", fstest.MapFS{"a/SKILL.md": manifest("description: d\n")}, `no "name"`},
		{"bad name", fstest.MapFS{"Bad/SKILL.md": manifest("name: Bad\ndescription: d\n")}, "naming rule"},
		{"double hyphen", fstest.MapFS{"a--b/SKILL.md": manifest("name: a--b\ndescription: d\n")}, "naming rule"},
		{"no description", fstest.MapFS{"a/SKILL.md": manifest("name: a\n")}, `no "description"`},
		{"long description", fstest.MapFS{"a/SKILL.md": manifest("name: a\ndescription: " + strings.Repeat("x", 1025) + "\n")}, "1024"},
		{"reserved metadata", fstest.MapFS{"a/SKILL.md": manifest("name: a\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n")}, "reserved"},
		{"name differs from dir", fstest.MapFS{"a/SKILL.md": manifest("name: b\ndescription: d\n")}, "rename the directory"},
		{"bad directory name", fstest.MapFS{"a b/c/SKILL.md": manifest("name: c\ndescription: d\n")}, "not usable in a skill:// URI"},
		{"too many files", many, "more than 512 files"},
		{"too many bytes", fstest.MapFS{"a/SKILL.md": manifest("name: a\ndescription: d\n"), "a/big.bin": {Data: make([]byte, skills.MaxBytes)}}, "16 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer()
			err := skills.AddFS(s, tc.fsys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("AddSkills = %v, want an error containing %q", err, tc.want)
			}
			if s.Lowlevel().Handles(protocol.MethodSkillsList) {
				t.Error("a failed registration installed skills/list")
			}
		})
	}
}

func TestSkillSymlinkRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "SKILL.md"), []byte("---\nname: a\ndescription: d\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "a", "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	err := skills.AddFS(newServer(), os.DirFS(dir))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("AddSkills with a symlink = %v", err)
	}
}

// TestSkillsNested: a skill inside another is a skill of its own, and its
// files are supporting files of the enclosing skill.
func TestSkillsNested(t *testing.T) {
	t.Parallel()
	s := newServer()
	mustAddFS(t, s, fstest.MapFS{
		"outer/SKILL.md":             {Data: []byte("---\nname: outer\ndescription: o\n---\n")},
		"outer/inner/SKILL.md":       {Data: []byte("---\nname: inner\ndescription: i\n---\n")},
		"outer/inner/notes/guide.md": {Data: []byte("guide\n")},
		"outer/empty":                {Mode: fs.ModeDir},
	})
	c := connect(t, s)
	ctx := ctxT(t)
	outer, err := skills.Get(ctx, c, "skill://outer/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := skills.Get(ctx, c, "skill://outer/inner/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(outer.Resources.Files) != 3 || len(inner.Resources.Files) != 2 {
		t.Errorf("outer files %v, inner files %v", outer.Resources.Files, inner.Resources.Files)
	}
	if _, err := skills.ReadFile(ctx, c, outer, "skill://outer/inner/notes/guide.md"); err != nil {
		t.Error(err)
	}
	if empty, err := skills.ReadDir(ctx, c, "skill://outer/empty"); err != nil || len(empty) != 0 {
		t.Errorf("empty directory = %v, %v", empty, err)
	}
	if kids, err := skills.ReadDir(ctx, c, "skill://outer/inner"); err != nil || len(kids) != 2 {
		t.Errorf("nested skill's root = %v, %v", kids, err)
	}
	if !skills.Remove(s, "outer") {
		t.Fatal("RemoveSkill(outer) removed nothing")
	}
	if _, err := skills.ReadFile(ctx, c, inner, "skill://outer/inner/notes/guide.md"); err != nil {
		t.Errorf("the nested skill after removing the enclosing one: %v", err)
	}
	if _, err := c.ReadResource(ctx, "skill://outer/SKILL.md"); err == nil {
		t.Error("the enclosing skill's SKILL.md is still served")
	}
}

// TestSkillWithPrefix: Skill takes an organizational prefix before the name.
func TestSkillWithPrefix(t *testing.T) {
	t.Parallel()
	s := newServer()
	mustAdd(t, s, "acme/billing/refunds", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: refunds\ndescription: r\n---\n")}})
	c := connect(t, s)
	if l, err := skills.LoadURI(ctxT(t), c, "skill://acme/billing/refunds/SKILL.md"); err != nil || l.Name() != "refunds" {
		t.Fatalf("LoadSkillURI = %v, %v", l, err)
	}
	if err := skills.Add(newServer(), "acme/Refunds", fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "naming rule") {
		t.Errorf("bad name: %v", err)
	}
}

func TestReadSkillDirectoryNeedsDeclaration(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("file:///a.txt", func() string { return "a" })
	c := connect(t, s)
	if _, err := skills.ReadDir(ctxT(t), c, "skill://x"); !errors.Is(err, skills.ErrNoDirectoryRead) {
		t.Errorf("err = %v, want ErrNoDirectoryRead", err)
	}
}

// TestListPages: skills/list pages by the server's PageSize, with cursors
// that survive a skill added between two pages, and a 2026-07-28 page
// carries the server's CacheHint.
func TestListPages(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.PageSize(1), fastmcp.CacheHint(time.Minute, protocol.CacheScopePublic))
	mustAddFS(t, s, skillsFS())
	c := connect(t, s, client.WithProtocolVersion(fastmcptest.Modern))
	ctx := ctxT(t)
	first, err := skills.List(ctx, c, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Skills) != 1 || first.Skills[0].URI != "skill://pdf-processing/SKILL.md" || first.NextCursor == "" {
		t.Fatalf("first page = %+v", first)
	}
	if first.TTLMs == nil || *first.TTLMs != 60000 || first.CacheScope != protocol.CacheScopePublic {
		t.Errorf("first page cache attributes: ttlMs %v, cacheScope %q", first.TTLMs, first.CacheScope)
	}
	mustAdd(t, s, "aaa", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: aaa\ndescription: sorts first\n---\n")}})
	second, err := skills.List(ctx, c, first.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Skills) != 1 || second.Skills[0].URI != "skill://writing/release-notes/SKILL.md" || second.NextCursor != "" {
		t.Fatalf("second page = %+v", second)
	}
	var all []string
	for e, err := range skills.All(ctx, c) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, e.URI)
	}
	if len(all) != 3 || all[0] != "skill://aaa/SKILL.md" {
		t.Errorf("All = %v", all)
	}
	if _, err := skills.List(ctx, c, "not a cursor"); !errors.Is(err, protocol.ErrInvalidParams) {
		t.Errorf("bad cursor: %v, want invalid params", err)
	}
}

// TestServersAreIndependent: each server keeps its own skills, and
// registrations on several servers at once are safe (run with -race).
func TestServersAreIndependent(t *testing.T) {
	t.Parallel()
	a, b := newServer(), newServer()
	done := make(chan error, 4)
	for i, s := range []*fastmcp.Server{a, b, a, b} {
		name := fmt.Sprintf("s%d", i)
		go func() {
			done <- skills.Add(s, name, fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: " + name + "\ndescription: d\n---\n")}})
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for s, want := range map[*fastmcp.Server]string{a: "skill://s0/SKILL.md skill://s2/SKILL.md", b: "skill://s1/SKILL.md skill://s3/SKILL.md"} {
		var got []string
		for e, err := range skills.All(ctxT(t), connect(t, s)) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, e.URI)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("listed %v, want %s", got, want)
		}
	}
	if skills.Remove(b, "s0") || !skills.Remove(a, "s0") {
		t.Error("Remove crossed servers")
	}
}

// TestRegistrationIsAllOrNone: when one skill's SKILL.md URI is already a
// resource, no skill of the call is registered, listed or served.
func TestRegistrationIsAllOrNone(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("skill://writing/release-notes/SKILL.md", func() string { return "mine" })
	err := skills.AddFS(s, skillsFS())
	if err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("AddFS = %v, want already registered", err)
	}
	if s.Lowlevel().Handles(protocol.MethodSkillsList) {
		t.Error("a failed registration installed skills/list")
	}
	c := connect(t, s)
	var listed []string
	for r, err := range c.Resources(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, r.URI)
	}
	if strings.Join(listed, " ") != "skill://writing/release-notes/SKILL.md" {
		t.Errorf("listed %v: the other skill's SKILL.md must not stay", listed)
	}
}
