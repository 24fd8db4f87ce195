package protocol

import "slices"

// Protocol revisions. Revisions up to 2025-11-25 are "legacy": a client opens
// a session with the initialize handshake. 2026-07-28 and later are "modern":
// there is no handshake and every request carries its protocol version and
// client capabilities in _meta.
const (
	Version20241105 = "2024-11-05"
	Version20250326 = "2025-03-26"
	Version20250618 = "2025-06-18"
	Version20251125 = "2025-11-25"
	Version20260728 = "2026-07-28"

	// LatestVersion is the newest revision this package speaks.
	LatestVersion = Version20260728
	// LatestLegacyVersion is the newest revision with the initialize handshake.
	LatestLegacyVersion = Version20251125
)

// supportedVersions lists every revision spoken, newest first.
var supportedVersions = []string{Version20260728, Version20251125, Version20250618, Version20250326, Version20241105}

// SupportedVersions returns every supported revision, newest first. The
// caller owns the returned slice.
func SupportedVersions() []string { return slices.Clone(supportedVersions) }

// IsSupported reports whether v is a revision this package speaks.
func IsSupported(v string) bool { return slices.Contains(supportedVersions, v) }

// IsModern reports whether v is a modern (handshake-free) revision, that is
// 2026-07-28 or later. Revisions compare as dates.
func IsModern(v string) bool { return v >= Version20260728 }

// AtLeast reports whether revision v is min or newer. Revisions are dates
// and compare lexically.
func AtLeast(v, min string) bool { return v >= min }

// Negotiate picks the revision a server answers to an initialize request that
// asked for requested: requested itself when it is a supported legacy
// revision, else the latest legacy revision (the client then decides whether
// it can speak it).
func Negotiate(requested string) string {
	if IsSupported(requested) && !IsModern(requested) {
		return requested
	}
	return LatestLegacyVersion
}
