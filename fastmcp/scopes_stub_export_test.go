package fastmcp

// SetResourceMetadataURLForTest sets what s.resourceMetadataURL returns
// while the Auth option (branch authwire) has not landed; it goes with
// scopes_stub.go at merge.
func SetResourceMetadataURLForTest(s *Server, url string) { stubMetadataURLs.Store(s, url) }
