package preview

import (
	"regexp"
	"slices"
	"strings"
)

// sourcePattern is what the preview accepts as a CSP source from a server:
// an http(s) or ws(s) origin, with an optional leading "*." label, port
// and path. Anything else (keywords, other schemes, whitespace, ';', ',',
// quotes) is dropped, so that a server cannot add directives of its own.
var sourcePattern = regexp.MustCompile(`^(https?|wss?)://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:([0-9]{1,5}|\*))?(/[A-Za-z0-9._~%!$&()*+=:@/-]*)?$`)

// cleanSources keeps the entries of list that are valid CSP sources and
// returns the rejected ones apart.
func cleanSources(list []string) (kept, dropped []string) {
	for _, s := range list {
		if sourcePattern.MatchString(s) {
			kept = append(kept, s)
		} else {
			dropped = append(dropped, s)
		}
	}
	return kept, dropped
}

// viewCSP returns the Content-Security-Policy the sandbox proxy and the
// view it loads run under, built from the resource's _meta.ui.csp as the
// MCP Apps specification maps it: connectDomains to connect-src,
// resourceDomains to script, style, image, font and media sources,
// frameDomains to frame-src and baseUriDomains to base-uri. Without a
// declaration the view may load nothing from the network. 'self' is the
// sandbox origin, which serves only the proxy itself. dropped lists the
// entries that were not valid sources.
func viewCSP(c *resourceCSP) (policy string, dropped []string) {
	if c == nil {
		c = &resourceCSP{}
	}
	connect, d1 := cleanSources(c.ConnectDomains)
	res, d2 := cleanSources(c.ResourceDomains)
	frame, d3 := cleanSources(c.FrameDomains)
	base, d4 := cleanSources(c.BaseURIDomains)
	dropped = slices.Concat(d1, d2, d3, d4)

	join := func(fixed string, extra []string, empty string) string {
		parts := []string{}
		if fixed != "" {
			parts = append(parts, fixed)
		}
		parts = append(parts, extra...)
		if len(parts) == 0 {
			return empty
		}
		return strings.Join(parts, " ")
	}
	directives := []string{
		"default-src 'none'",
		"script-src " + join("'self' 'unsafe-inline'", res, ""),
		"style-src " + join("'self' 'unsafe-inline'", res, ""),
		"img-src " + join("'self' data: blob:", res, ""),
		"font-src " + join("'self' data:", res, ""),
		"media-src " + join("'self' data: blob:", res, ""),
		"connect-src " + join("", connect, "'none'"),
		"frame-src " + join("", frame, "'none'"),
		"base-uri " + join("", base, "'self'"),
		"object-src 'none'",
		"form-action 'none'",
	}
	return strings.Join(directives, "; "), dropped
}
