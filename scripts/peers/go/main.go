// A peer for mcp-wire written with the official Go SDK (github.com/modelcontextprotocol/go-sdk).
// One program, two roles, chosen by the first argument:
//
//	peer client [flags] [-- server command...]  the SDK's client drives one MCP session against a
//	                                            server (ours) and prints one JSON line per step
//	peer server [flags]                         the SDK's server, for our client and CLI to drive
//
// Built by scripts/peers/go/suite.ts into a cache outside the repository.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peer client|server [flags]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "client":
		os.Exit(runClient(os.Args[2:]))
	case "server":
		os.Exit(runServer(os.Args[2:]))
	default:
		fmt.Fprintf(os.Stderr, "peer: unknown role %q (client or server)\n", os.Args[1])
		os.Exit(2)
	}
}
