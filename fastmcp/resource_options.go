package fastmcp

import (
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// resourceConfig holds the options of a resource registration.
type resourceConfig struct {
	itemConfig
	name        string
	mimeType    string
	size        *int64
	annotations *protocol.Annotations
	allowDotDot bool
	completers  map[string]Completer
	cache       *cacheHint
}

type resourceOption func(*resourceConfig)

func (f resourceOption) applyResource(c *resourceConfig) { f(c) }

// ResourceName sets the programmatic name of a resource or resource template, which
// clients list and may show. Default: the URI (or URI template).
func ResourceName(name string) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.name = name })
}

// MIMEType sets the MIME type of a resource's contents, published in the
// listing and sent with every read. Default: "text/plain" for a handler
// returning a string, detected from the data (github.com/gabriel-vasile/mimetype)
// for []byte, "application/json" for any other JSON value; contents a
// handler builds itself keep their own MIME type.
func MIMEType(mimeType string) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.mimeType = mimeType })
}

// ResourceSize publishes the size of a static resource's contents in bytes (before
// any base64 encoding), so clients can estimate its cost. It is an error on
// a resource template.
func ResourceSize(bytes int64) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.size = &bytes })
}

// Audience says who a resource is meant for: RoleUser, RoleAssistant or
// both (an annotation; clients may use it to filter).
func Audience(roles ...Role) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.Audience = append(a.Audience, roles...) })
}

// Priority says how important a resource is, from 0 (entirely optional) to 1
// (effectively required), as an annotation clients may use to choose what
// to include. Values outside [0, 1] are an error at registration.
func Priority(p float64) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.Priority = &p })
}

// LastModified says when a resource last changed (an annotation; protocol
// 2025-06-18 and later). It is published in UTC as RFC 3339.
func LastModified(t time.Time) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.LastModified = t.UTC().Format(time.RFC3339) })
}

func annotate(fn func(*protocol.Annotations)) ResourceOption {
	return resourceOption(func(c *resourceConfig) {
		if c.annotations == nil {
			c.annotations = &protocol.Annotations{}
		}
		fn(c.annotations)
	})
}

// AllowDotDot lets a resource template's variables hold ".." path
// segments. By default a URI whose extracted (percent-decoded) value has a
// ".." segment, such as file:///a/../../etc/passwd matched against
// file:///{+path}, is rejected before the handler runs, so a handler that
// joins the value to a directory cannot be led out of it.
func AllowDotDot() ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.allowDotDot = true })
}
