package preview

import (
	"strings"
	"testing"
)

func TestLoopbackHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.0.0.1", true},
		{"127.1.2.3:80", true},
		{"localhost:3000", true},
		{"LOCALHOST", true},
		{"[::1]:8080", true},
		{"::1", true},
		{"evil.example:8080", false},
		{"127.0.0.1.nip.io:8080", false},
		{"localhost.evil.example", false},
		{"10.0.0.1:80", false},
		{"0.0.0.0:80", false},
		{"[::]:80", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := loopbackHost(tt.host); got != tt.want {
			t.Errorf("loopbackHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestLoopbackOrigin(t *testing.T) {
	tests := []struct {
		origin string
		want   bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://localhost:1", true},
		{"http://[::1]:9", true},
		{"https://127.0.0.1:8080", false},
		{"http://evil.example", false},
		{"http://127.0.0.1:8080/path", false},
		{"http://user@127.0.0.1", false},
		{"http://", false},
		{"null", false},
	}
	for _, tt := range tests {
		if got := loopbackOrigin(tt.origin); got != tt.want {
			t.Errorf("loopbackOrigin(%q) = %v, want %v", tt.origin, got, tt.want)
		}
	}
}

func TestViewCSP(t *testing.T) {
	tests := []struct {
		name        string
		csp         *resourceCSP
		contains    []string
		notContains []string
		dropped     []string
	}{
		{
			name: "nothing declared: no network",
			csp:  nil,
			contains: []string{
				"default-src 'none'", "connect-src 'none'", "frame-src 'none'", "base-uri 'self'",
				"script-src 'self' 'unsafe-inline';", "img-src 'self' data: blob:;", "object-src 'none'",
			},
		},
		{
			name: "declared domains map to their directives",
			csp: &resourceCSP{
				ConnectDomains:  []string{"https://api.example.com", "wss://rt.example.com"},
				ResourceDomains: []string{"https://*.cdn.example.com", "http://localhost:5173"},
				FrameDomains:    []string{"https://www.youtube.com"},
				BaseURIDomains:  []string{"https://cdn.example.com/base/"},
			},
			contains: []string{
				"connect-src https://api.example.com wss://rt.example.com",
				"script-src 'self' 'unsafe-inline' https://*.cdn.example.com http://localhost:5173",
				"style-src 'self' 'unsafe-inline' https://*.cdn.example.com http://localhost:5173",
				"font-src 'self' data: https://*.cdn.example.com",
				"media-src 'self' data: blob: https://*.cdn.example.com",
				"frame-src https://www.youtube.com",
				"base-uri https://cdn.example.com/base/",
			},
		},
		{
			name: "injection attempts are dropped",
			csp: &resourceCSP{
				ConnectDomains:  []string{"https://ok.example", "https://a.example; script-src *", "'unsafe-eval'", "*", "javascript:alert(1)"},
				ResourceDomains: []string{"https://b.example,https://c.example", "data:", "https://x.example 'unsafe-eval'"},
			},
			contains:    []string{"connect-src https://ok.example;"},
			notContains: []string{"unsafe-eval", "script-src *", "c.example", "javascript"},
			dropped: []string{"https://a.example; script-src *", "'unsafe-eval'", "*", "javascript:alert(1)",
				"https://b.example,https://c.example", "data:", "https://x.example 'unsafe-eval'"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policy, dropped := viewCSP(tt.csp)
			for _, s := range tt.contains {
				if !strings.Contains(policy+";", s) {
					t.Errorf("policy lacks %q:\n%s", s, policy)
				}
			}
			for _, s := range tt.notContains {
				if strings.Contains(policy, s) {
					t.Errorf("policy has %q:\n%s", s, policy)
				}
			}
			if strings.Join(dropped, "|") != strings.Join(tt.dropped, "|") {
				t.Errorf("dropped = %q, want %q", dropped, tt.dropped)
			}
		})
	}
}

func TestIsViewMIME(t *testing.T) {
	tests := []struct {
		mime string
		want bool
	}{
		{"text/html;profile=mcp-app", true},
		{"text/html; profile=mcp-app", true},
		{"TEXT/HTML; charset=utf-8; profile=\"mcp-app\"", true},
		{"text/html", false},
		{"text/plain;profile=mcp-app", false},
		{"text/html;profile=mcp-apps", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isViewMIME(tt.mime); got != tt.want {
			t.Errorf("isViewMIME(%q) = %v, want %v", tt.mime, got, tt.want)
		}
	}
}
