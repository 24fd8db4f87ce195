package schema

// MirroredRules exposes the list of mirrored validate rules to the
// agreement test, which checks that each one is covered.
var MirroredRules = mirroredRules
