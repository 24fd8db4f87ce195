// Package args reads the command line that every server of the comparison
// takes, so that the driver starts them all alike.
package args

import "flag"

// Config is what a server was asked to do.
type Config struct {
	// HTTP is the address to serve Streamable HTTP on; empty means stdio.
	HTTP string
	// Tools100 asks for the 100 start-up tools beside add.
	Tools100 bool
}

// Parse reads the flags -http ADDR and -tools100.
func Parse() Config {
	var c Config
	flag.StringVar(&c.HTTP, "http", "", "serve Streamable HTTP on this address instead of stdio")
	flag.BoolVar(&c.Tools100, "tools100", false, "register the 100 start-up tools too")
	flag.Parse()
	return c
}
