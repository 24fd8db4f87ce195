package auth

import (
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// This file applies a server's auth settings (authinfo.Settings: fastmcp's
// -auth-* flags and FASTMCP_AUTH_* variables) to a Protection's
// configuration, in ProtectHTTPWith.

// SettingConflictError is the error of ProtectHTTPWith when a server's
// auth setting differs from the value the code's configuration gives, so
// that a deployment cannot believe it set an issuer the server does not
// check. Leave one of the two empty, or make them equal.
type SettingConflictError struct {
	// Name is what the two values are of: "issuer", "audience", "JWKS
	// URL" or "resource".
	Name string
	// Setting is the setting's value and where it came from.
	Setting authinfo.Setting
	// Config is the value the configuration gives.
	Config string
}

func (e *SettingConflictError) Error() string {
	return fmt.Sprintf("auth: setting %s=%q differs from the %s the code configures (%q): leave one of them empty, or make them equal",
		e.Setting.From, e.Setting.Value, e.Name, e.Config)
}

// fill sets *field to s's value when *field is empty, and reports whether
// it did; a value of s that differs from a non-empty *field is a
// *SettingConflictError.
func fill(name string, field *string, s authinfo.Setting) (bool, error) {
	switch {
	case !s.Set() || *field == s.Value:
		return false, nil
	case *field == "":
		*field = s.Value
		return true, nil
	}
	return false, &SettingConflictError{Name: name, Setting: s, Config: *field}
}

// withSettings returns v with the empty issuer, audience and JWKS URL of
// its JWTOptions filled in from set (v itself when set changes nothing).
// A verifier that does not come from JWT or NewJWTVerifier takes none of
// these settings.
func withSettings(v TokenVerifier, set *authinfo.Settings) (TokenVerifier, error) {
	var opts JWTOptions
	switch v := v.(type) {
	case *JWTVerifier:
		opts = v.opts
	case *failedVerifier:
		opts = v.opts
	default:
		for _, s := range []authinfo.Setting{set.Issuer, set.Audience, set.JWKSURL} {
			if s.Set() {
				return nil, fmt.Errorf("%s: setting %s=%q applies to the verifier of auth.JWT; %T takes its configuration from its own options: unset it", errProtect, s.From, s.Value, v)
			}
		}
		return v, nil
	}
	var from []string // the settings that filled a value in
	for _, f := range []struct {
		name  string
		field *string
		s     authinfo.Setting
	}{
		{"issuer", &opts.Issuer, set.Issuer},
		{"audience", &opts.Audience, set.Audience},
		{"JWKS URL", &opts.JWKSURL, set.JWKSURL},
	} {
		filled, err := fill(f.name, f.field, f.s)
		if err != nil {
			return nil, err
		}
		if filled {
			from = append(from, fmt.Sprintf("%s=%q", f.s.From, f.s.Value))
		}
	}
	if from == nil {
		if f, ok := v.(*failedVerifier); ok {
			return nil, f.err
		}
		return v, nil
	}
	w := newJWT(opts)
	if f, ok := w.(*failedVerifier); ok {
		return nil, fmt.Errorf("%w (with setting %s)", f.err, strings.Join(from, ", setting "))
	}
	return w, nil
}

// settingResource applies the resource setting s to the metadata m, whose
// resource was defaultResource before the configure functions ran: it
// replaces the default, and must equal a resource they set.
func settingResource(m *ProtectedResourceMetadata, defaultResource string, s authinfo.Setting) error {
	if !s.Set() || m.Resource == s.Value {
		return nil
	}
	if m.Resource != defaultResource {
		return &SettingConflictError{Name: "resource", Setting: s, Config: m.Resource}
	}
	m.Resource = s.Value
	return nil
}
