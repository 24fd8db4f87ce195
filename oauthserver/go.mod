module github.com/fastmcp-go/fastmcp/oauthserver

go 1.26.0

replace github.com/fastmcp-go/fastmcp => ../
