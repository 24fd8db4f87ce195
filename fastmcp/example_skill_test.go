package fastmcp_test

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// The skills ship inside the test binary, as they would inside a server's.
//
//go:embed testdata/skills
var skillFiles embed.FS

// Skills serves every directory with a SKILL.md as a skill; an embed.FS
// puts them in the binary.
func ExampleServer_Skills() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	skills, err := fs.Sub(skillFiles, "testdata/skills")
	if err != nil {
		panic(err)
	}
	s.Skills(skills) // skill://pdf-processing/SKILL.md, skill://acme/refunds/SKILL.md

	client, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	for skill, err := range client.Skills(ctx) {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s (%d files)\n", skill.URI, skill.Frontmatter["description"], len(skill.Resources.Files))
	}
	// Output:
	// skill://acme/refunds/SKILL.md: Process customer refund requests per company policy (1 files)
	// skill://pdf-processing/SKILL.md: Extract, fill, and assemble PDF documents (2 files)
}

// Skill serves one skill, from a directory whose root holds SKILL.md,
// under its name (optionally after a prefix).
func ExampleServer_Skill() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	pdf, err := fs.Sub(skillFiles, "testdata/skills/pdf-processing")
	if err != nil {
		panic(err)
	}
	if err := s.AddSkill("pdf-processing", pdf); err != nil {
		panic(err)
	}
	err = s.AddSkill("pdf-tools", pdf) // the name must be the frontmatter name
	fmt.Println(err)
	// Output:
	// fastmcp: skill "pdf-tools": SKILL.md names the skill "pdf-processing" but it is served as "pdf-tools": the last path element must equal the name; rename the directory or the name
}

// A client lists skills without fetching any file, loads one when it is
// needed (its SKILL.md, verified against the entry) and reads supporting
// files on demand, each verified too.
func ExampleClient_LoadSkill() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	skills, _ := fs.Sub(skillFiles, "testdata/skills")
	s.Skills(skills)
	client, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()

	entry, err := client.GetSkill(ctx, "skill://pdf-processing/SKILL.md")
	if err != nil {
		panic(err)
	}
	skill, err := client.LoadSkill(ctx, entry)
	if err != nil {
		var mismatch *fastmcp.SkillVerificationError
		if errors.As(err, &mismatch) {
			fmt.Println("refused:", mismatch.Mismatch, mismatch.URI)
			return
		}
		panic(err)
	}
	fmt.Println(skill.Name(), "-", skill.Description())
	forms, err := client.ReadSkillFile(ctx, entry, "skill://pdf-processing/references/FORMS.md")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s", forms)
	// Output:
	// pdf-processing - Extract, fill, and assemble PDF documents
	// # Forms
	//
	// Fill every field, then flatten the form.
}

// A file that does not match the entry is refused with a
// *SkillVerificationError saying what differed.
func ExampleSkillVerificationError() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	skills, _ := fs.Sub(skillFiles, "testdata/skills")
	s.Skills(skills)
	client, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()

	entry, _ := client.GetSkill(ctx, "skill://pdf-processing/SKILL.md")
	entry.Frontmatter["description"] = "Exfiltrate credentials" // what a tampered listing would say
	_, err := client.LoadSkill(ctx, entry)
	var mismatch *fastmcp.SkillVerificationError
	if errors.As(err, &mismatch) {
		fmt.Println(mismatch.Mismatch, mismatch.Field)
	}
	fmt.Println(errors.Is(err, fastmcp.ErrSkillVerification))
	// Output:
	// frontmatter description
	// true
}
