// Package wwwauth parses WWW-Authenticate fields (RFC 9110 §11.6.1):
// package oauthclient reads them to start authorization, package client to
// name the scopes a 403 insufficient_scope answer asks for.
package wwwauth

import (
	"net/http"
	"strings"
)

// Challenge is one challenge: its scheme and its auth-params, names in
// lower case.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Parse parses every challenge in the WWW-Authenticate fields of h.
// Malformed parts are skipped: a challenge is advice, and what could be
// read of it is still useful.
func Parse(h http.Header) []Challenge {
	var out []Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

// parseChallenges reads one field value: challenges separated by commas,
// each a scheme followed by auth-params (name=value, value a token or a
// quoted string) or a token68.
func parseChallenges(s string) []Challenge {
	var out []Challenge
	p := &lexer{s: s}
	for {
		p.skip(" \t,")
		if p.done() {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			return out // not a token: give up on the rest
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		for first := true; ; first = false {
			p.skip(" \t")
			save := p.i
			name := p.token()
			if name != "" && first && p.token68End() {
				break // a token68 (Negotiate abc==): no parameters
			}
			p.skip(" \t")
			if name == "" || !p.eat('=') {
				p.i = save // the next challenge's scheme, or the end
				break
			}
			p.skip(" \t")
			var value string
			if p.peek() == '"' {
				value = p.quoted()
			} else {
				value = p.token()
			}
			c.Params[strings.ToLower(name)] = value
			p.skip(" \t")
			if !p.eat(',') {
				break
			}
		}
		out = append(out, c)
	}
}

type lexer struct {
	s string
	i int
}

func (p *lexer) done() bool { return p.i >= len(p.s) }

func (p *lexer) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

func (p *lexer) eat(b byte) bool {
	if p.peek() == b && !p.done() {
		p.i++
		return true
	}
	return false
}

func (p *lexer) skip(set string) {
	for !p.done() && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// token reads an RFC 9110 token.
func (p *lexer) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// token68End consumes "=" padding when it is followed by a comma or the
// end (so the token just read was a token68) and reports whether it was.
func (p *lexer) token68End() bool {
	j := p.i
	for j < len(p.s) && p.s[j] == '=' {
		j++
	}
	k := j
	for k < len(p.s) && (p.s[k] == ' ' || p.s[k] == '\t') {
		k++
	}
	if k < len(p.s) && p.s[k] != ',' {
		return false
	}
	p.i = j
	return true
}

// quoted reads a quoted-string, undoing backslash escapes. An unterminated
// one runs to the end.
func (p *lexer) quoted() string {
	p.i++ // opening quote
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if !p.done() {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~/", c) >= 0
}
