package schema

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The formats the rule list asserts (engine.go), as draft 2020-12 and its
// RFCs define them, judged as santhosh-tekuri/jsonschema judges them (the
// differential test compares the two).

// isUUID: RFC 4122's 8-4-4-4-12 hex digits, either case.
func isUUID(s string) bool {
	groups := strings.Split(s, "-")
	if len(groups) != 5 {
		return false
	}
	for i, g := range groups {
		if len(g) != [5]int{8, 4, 4, 4, 12}[i] {
			return false
		}
		for _, c := range []byte(g) {
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isIPv4: four dotted decimals 0–255, no leading zeros.
func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) > 1 && p[0] == '0' {
			return false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 {
			return false
		}
	}
	return true
}

// isIPv6: an RFC 4291 address, without a zone.
func isIPv6(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}

// isHostname: RFC 1123 labels of letters, digits and inner hyphens, 1–63
// bytes each, 253 in all; one trailing dot allowed.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isEmail: RFC 5321 local-part@domain, where the domain is a host name or
// an address literal ([1.2.3.4], [IPv6:...]).
func isEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for _, r := range local {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r)) {
				return false
			}
		}
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(lit)
	}
	return isHostname(domain)
}

// isURI: an absolute URI (a scheme), with any IPv6 host in brackets.
func isURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if h := u.Hostname(); strings.Contains(h, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") || !isIPv6(h) {
			return false
		}
	}
	return u.IsAbs()
}

// isDate: RFC 3339 full-date.
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// isDateTime: RFC 3339 date-time: a full-date, "T" (either case), a
// full-time.
func isDateTime(s string) bool {
	return len(s) >= 20 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// isTime: RFC 3339 full-time: hh:mm:ss, an optional fraction, and "Z" or
// an offset; a leap second only at 23:59 UTC.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	var hms [3]int
	for i := range hms {
		n, err := strconv.Atoi(s[3*i : 3*i+2])
		if err != nil || n < 0 {
			return false
		}
		hms[i] = n
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := 0
		for n < len(frac) && '0' <= frac[n] && frac[n] <= '9' {
			n++
		}
		if n == 0 {
			return false
		}
		rest = frac[n:]
	}
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || rest[3] != ':' {
			return false
		}
		sign := 0
		switch rest[0] {
		case '+':
			sign = -1
		case '-':
			sign = 1
		default:
			return false
		}
		zh, err1 := strconv.Atoi(rest[1:3])
		zm, err2 := strconv.Atoi(rest[4:6])
		if err1 != nil || err2 != nil || zh < 0 || zm < 0 || zh > 23 || zm > 59 {
			return false
		}
		utc := h*60 + m + sign*(zh*60+zm)
		if utc < 0 {
			utc += 24 * 60
		}
		h, m = utc/60, utc%60 // past midnight, h is 24: no leap second then
	}
	return sec < 60 || (h == 23 && m == 59)
}
