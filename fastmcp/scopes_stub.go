package fastmcp

import "sync"

// This file stands in for the Auth option's resourceMetadataURL (branch
// authwire, fastmcp/auth.go) until it lands; the lead deletes it at merge.

// stubMetadataURLs holds, per server, the URL tests set with
// setResourceMetadataURL.
var stubMetadataURLs sync.Map // *Server → string

// resourceMetadataURL returns the URL of the server's protected resource
// metadata, named in its WWW-Authenticate challenges; "" when unknown.
func (s *Server) resourceMetadataURL() string {
	v, _ := stubMetadataURLs.Load(s)
	u, _ := v.(string)
	return u
}
