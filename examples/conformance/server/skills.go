package main

import (
	"embed"
	"io/fs"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/skills"
)

// skillFiles holds the skills the sep-2640-skills-* scenarios read: one
// skill with a supporting file in a subdirectory (for
// resources/directory/read).
//
//go:embed skills
var skillFiles embed.FS

// registerSkills serves every skill under skills/ (skills extension,
// SEP-2640).
func registerSkills(s *fastmcp.Server) {
	sub, err := fs.Sub(skillFiles, "skills")
	if err != nil {
		panic(err)
	}
	if err := skills.AddFS(s, sub); err != nil {
		panic(err)
	}
}
