package fastmcp

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// ErrAllowedHostsRequired is returned (wrapped, with the address and how
// to fix it) by Run when the server would
// listen on every interface (":8000", "0.0.0.0:8000", "[::]:8000") without
// the AllowedHosts setting. Off loopback, the DNS-rebinding protection
// needs the names clients reach the server by: a rebinding page sends its
// own name as Host, and a name the server was not told about cannot be
// told apart from it. Set FASTMCP_ALLOWED_HOSTS (or -allowed-hosts, or the
// AllowedHosts option) to those names, or to "*" to accept any Host.
var ErrAllowedHostsRequired = errors.New("fastmcp: the AllowedHosts setting is required")

// allowedHosts returns the Host names the HTTP front door accepts when it
// listens on bound (configured as addr; "" when the caller opened the
// listener): the AllowedHosts setting when given; else the name in addr
// (with the bound IP address, and the localhost names on loopback); else
// nil, which leaves transport.HostPolicy's default (localhost names on
// loopback, the address itself elsewhere). Listening on every interface
// without the setting is an error wrapping ErrAllowedHostsRequired.
func allowedHosts(set Settings, addr string, bound net.Addr) ([]string, error) {
	if len(set.AllowedHosts) > 0 {
		return set.AllowedHosts, nil
	}
	var ip net.IP
	if tcp, ok := bound.(*net.TCPAddr); ok {
		ip = tcp.IP
	}
	name := ""
	if addr != "" {
		name, _, _ = net.SplitHostPort(addr)
		name = strings.TrimSuffix(strings.ToLower(name), ".")
	}
	if ip != nil && ip.IsUnspecified() {
		shown := addr
		if shown == "" {
			shown = bound.String()
		}
		return nil, fmt.Errorf("%w: the server listens on %s, every interface, where the DNS-rebinding protection needs the names clients use to reach it: "+
			"set FASTMCP_ALLOWED_HOSTS (flag -allowed-hosts, option AllowedHosts) to them, such as \"mcp.example.com,10.0.0.5\", "+
			"or to \"*\" to accept any Host; or listen on a loopback or a specific address", ErrAllowedHostsRequired, shown)
	}
	if name == "" || name == "localhost" || net.ParseIP(name) != nil || ip == nil {
		return nil, nil
	}
	hosts := []string{name, ip.String()}
	if ip.IsLoopback() {
		hosts = append(hosts, "localhost", "127.0.0.1", "::1")
	}
	return hosts, nil
}
