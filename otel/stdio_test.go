package otel_test

const stdioServerEnv = "FASTMCP_OTEL_TEST_STDIO_SERVER"

func runStdioServer(string) int { return 2 }
