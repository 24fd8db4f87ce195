// Package skills serves and uses Agent Skills over MCP: the skills
// extension (io.modelcontextprotocol/skills, SEP-2640).
//
// A skill is a directory of instructions an agent loads when it needs them:
// a SKILL.md with YAML frontmatter (name, description, and whatever else the
// Agent Skills specification allows) and any supporting files. The extension
// serves every file as a skill://<skill-path>/<file> resource and adds two
// methods: skills/list enumerates the skills, skills/get returns one by the
// URI of its SKILL.md. Each entry carries the frontmatter and every file's
// SHA-256 digest and size, so a client can verify what it loads.
//
// # Serving
//
// AddFS registers every skill of a file tree (an embed.FS ships them inside
// the binary), Add one skill under a name, Remove takes one away:
//
//	tree, _ := fs.Sub(skillFiles, "skills")
//	if err := skills.AddFS(s, tree); err != nil { ... }
//
// The files are read and checked once, at registration, and served from
// memory. The server declares the extension (with directoryRead), lists each
// SKILL.md among its resources, and serves resources/read for every file of
// a skill and resources/directory/read for its directories.
//
// # Using skills from a client
//
// All (or List, a page at a time) lists the skills without fetching any
// file; Load fetches a skill's SKILL.md and verifies it against its entry;
// ReadFile fetches and verifies a supporting file; ReadDir lists a skill's
// directory. A file that does not match its entry is a *VerificationError,
// and the skill must not be used.
//
// Every function is safe for concurrent use, also while the server is
// serving; clients are told of added and removed skills with
// notifications/resources/list_changed.
//
// A server that registers no skill links none of this package: it is a
// separate package so that the YAML parser and the extension's code are paid
// for only by the servers and clients that use them.
package skills
