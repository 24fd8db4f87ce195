//go:build race

package openapi_test

// raceEnabled: the race detector is on (it makes TestGitHubNames 5x slower).
const raceEnabled = true
