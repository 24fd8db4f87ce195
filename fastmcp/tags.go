package fastmcp

import "slices"

// Tags labels a tool, resource, resource template or prompt with tags:
// names for groups of components ("admin", "billing", "read") that
// Server.Enable, Server.Disable and a Visibility function can select by.
// Tags are the server's own: clients do not see them. Several Tags options
// add up; each tag is kept once.
func Tags(tags ...string) CommonOption {
	tags = slices.Clone(tags)
	return commonOption(func(c *itemConfig) {
		for _, t := range tags {
			if !slices.Contains(c.tags, t) {
				c.tags = append(c.tags, t)
			}
		}
	})
}
