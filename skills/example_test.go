package skills_test

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/skills"
	"github.com/fastmcp-go/fastmcp/transport"
)

// serveInMemory serves s over an in-memory pipe and returns a client
// connected to it, and a function that closes both.
func serveInMemory(s *fastmcp.Server) (*client.Client, func()) {
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, sc) }()
	c, err := client.Connect(context.Background(), cc, client.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		panic(err)
	}
	return c, func() { c.Close(); cancel(); <-done }
}

// The skills ship inside the test binary, as they would inside a server's.
//
//go:embed testdata/skills
var skillFiles embed.FS

// AddFS serves every directory with a SKILL.md as a skill; an embed.FS
// puts them in the binary. A client lists them with All.
func Example() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	tree, err := fs.Sub(skillFiles, "testdata/skills")
	if err != nil {
		panic(err)
	}
	if err := skills.AddFS(s, tree); err != nil { // skill://pdf-processing/SKILL.md, skill://acme/refunds/SKILL.md
		panic(err)
	}

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	for skill, err := range skills.All(ctx, c) {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s (%d files)\n", skill.URI, skill.Frontmatter["description"], len(skill.Resources.Files))
	}
	// Output:
	// skill://acme/refunds/SKILL.md: Process customer refund requests per company policy (1 files)
	// skill://pdf-processing/SKILL.md: Extract, fill, and assemble PDF documents (2 files)
}

// Add serves one skill, from a directory whose root holds SKILL.md, under
// its name (optionally after a prefix).
func ExampleAdd() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	pdf, err := fs.Sub(skillFiles, "testdata/skills/pdf-processing")
	if err != nil {
		panic(err)
	}
	if err := skills.Add(s, "pdf-processing", pdf); err != nil {
		panic(err)
	}
	err = skills.Add(s, "pdf-tools", pdf) // the name must be the frontmatter name
	fmt.Println(err)
	// Output:
	// skills: "pdf-tools": SKILL.md names the skill "pdf-processing" but it is served as "pdf-tools": the last path element must equal the name; rename the directory or the name
}

// A client lists skills without fetching any file, loads one when it is
// needed (its SKILL.md, verified against the entry) and reads supporting
// files on demand, each verified too.
func ExampleLoad() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	tree, _ := fs.Sub(skillFiles, "testdata/skills")
	if err := skills.AddFS(s, tree); err != nil {
		panic(err)
	}
	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()

	entry, err := skills.Get(ctx, c, "skill://pdf-processing/SKILL.md")
	if err != nil {
		panic(err)
	}
	skill, err := skills.Load(ctx, c, entry)
	if err != nil {
		var mismatch *skills.VerificationError
		if errors.As(err, &mismatch) {
			fmt.Println("refused:", mismatch.Mismatch, mismatch.URI)
			return
		}
		panic(err)
	}
	fmt.Println(skill.Name(), "-", skill.Description())
	forms, err := skills.ReadFile(ctx, c, entry, "skill://pdf-processing/references/FORMS.md")
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
// *VerificationError saying what differed.
func ExampleVerificationError() {
	s := fastmcp.New("docs", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	tree, _ := fs.Sub(skillFiles, "testdata/skills")
	if err := skills.AddFS(s, tree); err != nil {
		panic(err)
	}
	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()

	entry, _ := skills.Get(ctx, c, "skill://pdf-processing/SKILL.md")
	entry.Frontmatter["description"] = "Exfiltrate credentials" // what a tampered listing would say
	_, err := skills.Load(ctx, c, entry)
	var mismatch *skills.VerificationError
	if errors.As(err, &mismatch) {
		fmt.Println(mismatch.Mismatch, mismatch.Field)
	}
	fmt.Println(errors.Is(err, skills.ErrVerification))
	// Output:
	// frontmatter description
	// true
}
