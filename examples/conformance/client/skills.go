package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/skills"
)

// The client scenarios of the skills extension (SEP-2640): a host lists
// the skills, fetches nothing until it loads one, and refuses a skill whose
// files do not match the entry.
func init() {
	scenarios["sep-2640-client-no-prefetch"] = skillsListOnly
	for _, s := range []string{"sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"} {
		scenarios[s] = skillsLoad
	}
}

// skillsListOnly lists the skills, as a host shows them for approval:
// listing fetches no file.
func skillsListOnly(ctx context.Context, r *run) error {
	c, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = listSkills(ctx, r, c)
	return err
}

// skillsLoad lists the skills and loads the first (its SKILL.md, verified
// against the entry), then reads its other files, as a host using the
// skill would. A skill that fails verification is refused: that is the
// expected outcome of the verify-* scenarios, so the run succeeds.
func skillsLoad(ctx context.Context, r *run) error {
	c, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	entries, err := listSkills(ctx, r, c)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return errors.New("the server lists no skills")
	}
	entry := entries[0]
	skill, err := skills.Load(ctx, c, entry)
	if verr, ok := errors.AsType[*skills.VerificationError](err); ok {
		r.logger.Info("skill refused", "uri", verr.URI, "mismatch", verr.Mismatch, "field", verr.Field, "error", verr)
		return nil
	}
	if err != nil {
		return err
	}
	r.logger.Info("skill loaded", "name", skill.Name())
	for _, f := range entry.Resources.Files {
		if f.URI == entry.URI {
			continue
		}
		if _, err := skills.ReadFile(ctx, c, entry, f.URI); err != nil {
			return fmt.Errorf("reading %s: %w", f.URI, err)
		}
	}
	return nil
}

func listSkills(ctx context.Context, r *run, c *client.Client) ([]*skills.Entry, error) {
	var entries []*skills.Entry
	for e, err := range skills.All(ctx, c) {
		if err != nil {
			return nil, err
		}
		r.logger.Info("skill", "uri", e.URI, "files", len(e.Resources.Files))
		entries = append(entries, e)
	}
	return entries, nil
}
