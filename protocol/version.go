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

// AtLeast reports whether revision v is min or newer. Revisions are dates
// and compare lexically.
func AtLeast(v, min string) bool { return v >= min }

// IsLegacy reports whether v is a supported revision of the [Legacy] era,
// with the initialize handshake (2024-11-05 to 2025-11-25). Unlike
// EraOf(v) == Legacy it is false for a revision this package does not
// speak.
func IsLegacy(v string) bool { return IsSupported(v) && EraOf(v) == Legacy }

// The predicates below name what each revision has, so that the rest of the
// SDK asks about a feature instead of comparing revisions. Each takes a
// supported revision (or "" before one is known, which has none of them).

// HasBatches reports whether revision v carries JSON-RPC batches (only
// [BatchVersion], 2025-03-26).
func HasBatches(v string) bool { return v == BatchVersion }

// HasElicitation reports whether revision v has elicitation (2025-06-18 on).
func HasElicitation(v string) bool { return AtLeast(v, Version20250618) }

// HasURLElicitation reports whether revision v has URL-mode elicitation,
// the elicitation.form and elicitation.url capabilities, and the mode
// member of form-mode requests (2025-11-25 on).
func HasURLElicitation(v string) bool { return AtLeast(v, Version20251125) }

// HasSamplingTools reports whether revision v lets sampling requests carry
// tools (the sampling.tools capability, 2025-11-25 on).
func HasSamplingTools(v string) bool { return AtLeast(v, Version20251125) }

// PrimesStreams reports whether the SSE streams of revision v start with a
// priming event, so that a client can resume them (SEP-1699, 2025-11-25 on).
func PrimesStreams(v string) bool { return AtLeast(v, Version20251125) }

// Negotiate picks the revision a server answers to an initialize request that
// asked for requested: requested itself when it is a supported legacy
// revision, else the latest legacy revision (the client then decides whether
// it can speak it).
func Negotiate(requested string) string {
	if IsLegacy(requested) {
		return requested
	}
	return LatestLegacyVersion
}
