// Package jsonschema is a copy of github.com/santhosh-tekuri/jsonschema/v6
// v6.0.3 (Apache License 2.0, see LICENSE), the JSON Schema validator the
// schema package uses.
//
// It differs from upstream in one way: upstream compiles the metaschemas
// of every draft in an init function, which cost every program linking
// it several milliseconds of startup (most of a small server's) whether
// or not it ever compiled a schema. Here NewCompiler compiles them the
// first time it is called (see loadDrafts in draft.go). Everything else
// is upstream's code, unchanged apart from import paths; upstream's own
// tests are not copied.
package jsonschema
