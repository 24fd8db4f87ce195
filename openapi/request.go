package openapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// strictEscape percent-encodes every byte of s but the RFC 3986
// unreserved characters (A-Z a-z 0-9 - . _ ~). A value made only of dots
// has them encoded too, so that it cannot become a "." or ".." path
// segment.
func strictEscape(s string) string {
	allDots := s != "" && strings.Trim(s, ".") == ""
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '~' || c == '.' && !allDots {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// text is the text form of a JSON value in a parameter: strings as they
// are, numbers without exponent, other values as JSON.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return v.String()
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// pairs returns the members of an object value in key order.
func pairs(m map[string]any) [][2]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, text(m[k])}
	}
	return out
}

func explodeOf(a argument, def bool) bool {
	if a.param.Explode != nil {
		return *a.param.Explode
	}
	return def
}

// expandPath expands one path parameter (styles simple, label, matrix).
func expandPath(a argument, v any) string {
	style := a.param.Style
	explode := explodeOf(a, false)
	esc := strictEscape
	var prefix, sep string
	switch style {
	case "label":
		prefix, sep = ".", ","
		if explode {
			sep = "."
		}
	case "matrix":
		prefix, sep = ";"+esc(a.orig)+"=", ","
		if explode {
			sep = ";" + esc(a.orig) + "="
		}
	default:
		sep = ","
	}
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = esc(text(e))
		}
		return prefix + strings.Join(parts, sep)
	case map[string]any:
		var parts []string
		for _, kv := range pairs(v) {
			if explode {
				parts = append(parts, esc(kv[0])+"="+esc(kv[1]))
			} else {
				parts = append(parts, esc(kv[0]), esc(kv[1]))
			}
		}
		if style == "matrix" && explode {
			return ";" + strings.Join(parts, ";")
		}
		s := ","
		if style == "label" && explode {
			s = "."
		}
		return prefix + strings.Join(parts, s)
	default:
		return prefix + esc(text(v))
	}
}

// expandQuery returns the query pieces ("k=v", encoded) of one parameter
// (styles form, spaceDelimited, pipeDelimited, deepObject).
func expandQuery(a argument, v any) []string {
	name := url.QueryEscape(a.orig)
	esc := url.QueryEscape
	if a.param.Schema == nil && len(a.param.Content) > 0 {
		b, _ := json.Marshal(v)
		return []string{name + "=" + esc(string(b))}
	}
	style := a.param.Style
	explode := explodeOf(a, style == "" || style == "form")
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = esc(text(e))
		}
		if explode {
			out := make([]string, len(parts))
			for i, p := range parts {
				out[i] = name + "=" + p
			}
			return out
		}
		sep := ","
		switch style {
		case "spaceDelimited":
			sep = "%20"
		case "pipeDelimited":
			sep = "|"
		}
		return []string{name + "=" + strings.Join(parts, sep)}
	case map[string]any:
		var out []string
		switch {
		case style == "deepObject":
			for _, kv := range pairs(v) {
				out = append(out, name+"["+esc(kv[0])+"]="+esc(kv[1]))
			}
		case explode:
			for _, kv := range pairs(v) {
				out = append(out, esc(kv[0])+"="+esc(kv[1]))
			}
		default:
			var parts []string
			for _, kv := range pairs(v) {
				parts = append(parts, esc(kv[0]), esc(kv[1]))
			}
			out = []string{name + "=" + strings.Join(parts, ",")}
		}
		return out
	default:
		return []string{name + "=" + esc(text(v))}
	}
}

// headerValue is a header parameter's value (style simple).
func headerValue(a argument, v any) string {
	if a.param.Schema == nil && len(a.param.Content) > 0 {
		b, _ := json.Marshal(v)
		return string(b)
	}
	explode := explodeOf(a, false)
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = text(e)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		var parts []string
		for _, kv := range pairs(v) {
			if explode {
				parts = append(parts, kv[0]+"="+kv[1])
			} else {
				parts = append(parts, kv[0], kv[1])
			}
		}
		return strings.Join(parts, ",")
	default:
		return text(v)
	}
}

// cookieValue is a cookie parameter's value (style form, not exploded),
// percent-encoded so that it stays one cookie.
func cookieValue(a argument, v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = strictEscape(text(e))
		}
		return strings.Join(parts, ",")
	case map[string]any:
		var parts []string
		for _, kv := range pairs(v) {
			parts = append(parts, strictEscape(kv[0]), strictEscape(kv[1]))
		}
		return strings.Join(parts, ",")
	default:
		return strictEscape(text(v))
	}
}

// newRequest builds the HTTP request of one call of m with the (validated)
// arguments args.
func (m *mapping) newRequest(base string, args map[string]any) (*http.Request, error) {
	path := m.Path
	var query, cookies []string
	header := http.Header{}
	var bodyArgs map[string]any
	var whole any
	hasBody := false
	for _, a := range m.args {
		v, ok := args[a.name]
		if !ok || v == nil && (a.in == inQuery || a.in == inHeader || a.in == inCookie) {
			continue // null leaves a parameter out: OpenAPI has no null parameter
		}
		switch a.in {
		case inPath:
			path = strings.ReplaceAll(path, "{"+a.orig+"}", expandPath(a, v))
		case inQuery:
			query = append(query, expandQuery(a, v)...)
		case inHeader:
			header.Set(a.orig, headerValue(a, v))
		case inCookie:
			cookies = append(cookies, a.orig+"="+cookieValue(a, v))
		case inBody:
			hasBody = true
			if a.orig == "" {
				whole = v
			} else {
				if bodyArgs == nil {
					bodyArgs = map[string]any{}
				}
				bodyArgs[a.orig] = v
			}
		}
	}
	u := strings.TrimRight(base, "/") + path
	if len(query) > 0 {
		u += "?" + strings.Join(query, "&")
	}
	var body io.Reader
	contentType := ""
	if m.body != nil && (hasBody || m.body.lifted && m.body.required) {
		if m.body.lifted {
			if bodyArgs == nil {
				bodyArgs = map[string]any{}
			}
			whole = bodyArgs
		}
		b, ct, err := m.body.encode(whole)
		if err != nil {
			return nil, err
		}
		body, contentType = bytes.NewReader(b), ct
	}
	req, err := http.NewRequest(m.Method, u, body)
	if err != nil {
		return nil, fmt.Errorf("building the request: %w", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if m.accept != "" {
		req.Header.Set("Accept", m.accept)
	}
	return req, nil
}

// encode returns the body for value v and its Content-Type.
func (b *bodySpec) encode(v any) ([]byte, string, error) {
	switch b.kind {
	case bodyJSON:
		data, err := json.Marshal(v)
		return data, b.mediaType, err
	case bodyForm:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("argument body: a form body must be an object, not %T", v)
		}
		vals := url.Values{}
		for k, e := range obj {
			if list, ok := e.([]any); ok {
				for _, x := range list {
					vals.Add(k, text(x))
				}
				continue
			}
			vals.Set(k, text(e))
		}
		return []byte(vals.Encode()), "application/x-www-form-urlencoded", nil
	case bodyMultipart:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("argument body: a multipart body must be an object, not %T", v)
		}
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			values := []any{obj[k]}
			if list, ok := obj[k].([]any); ok {
				values = list
			}
			for _, e := range values {
				if err := b.part(w, k, e); err != nil {
					return nil, "", err
				}
			}
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), w.FormDataContentType(), nil
	case bodyText:
		return []byte(text(v)), b.mediaType, nil
	default:
		s, _ := v.(string)
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, "", fmt.Errorf("argument body: not base64: %w", err)
		}
		return data, b.mediaType, nil
	}
}

// part writes one multipart part: a file for a binary field (its base64
// argument decoded), JSON for an object, text otherwise.
func (b *bodySpec) part(w *multipart.Writer, name string, v any) error {
	h := textproto.MIMEHeader{}
	var data []byte
	switch {
	case b.binary[name]:
		s, _ := v.(string)
		d, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fmt.Errorf("argument body: part %q: not base64: %w", name, err)
		}
		data = d
		ct := b.partTypes[name]
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, name, name))
		h.Set("Content-Type", ct)
	default:
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, name))
		switch v.(type) {
		case map[string]any, []any:
			data, _ = json.Marshal(v)
			h.Set("Content-Type", "application/json")
		default:
			data = []byte(text(v))
		}
		if ct := b.partTypes[name]; ct != "" {
			h.Set("Content-Type", ct)
		}
	}
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = pw.Write(data)
	return err
}
