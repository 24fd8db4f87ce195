package fastmcptest

// MaskLine exposes mask to the tests.
func MaskLine(line string, names ...string) string { return mask(line, names) }
