// Package errprefix holds only a test: it walks the repository's source
// and checks that every exported Err… variable's message starts with its
// package's name ("client: …"), as the standard library's do
// ("http: Server closed"), so that an error printed alone says where it
// came from.
package errprefix
