package oauthproxy

// GitHubUser is githubUser, for tests against a GitHub-shaped server.
var GitHubUser = githubUser
