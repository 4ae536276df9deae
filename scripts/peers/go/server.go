package main

// The SDK's server: a tool with an output schema (add), a tool that reports progress (countdown),
// a resource, a prompt. Over stdio by default; with -http ADDR over Streamable HTTP at /mcp
// (stateful, which the SDK serves only in the handshake era, or -stateless). -legacy narrows the
// versions it supports to the handshake era, so that our client's auto mode must fall back.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addIn struct {
	A float64 `json:"a" jsonschema:"the first addend"`
	B float64 `json:"b" jsonschema:"the second addend"`
}

type addOut struct {
	Sum float64 `json:"sum" jsonschema:"a plus b"`
}

type countdownIn struct {
	Steps int `json:"steps" jsonschema:"how many steps (1-20)"`
}

type countdownOut struct {
	Done int `json:"done" jsonschema:"how many steps were counted"`
}

const notesURI = "info://go-peer/notes"

func newPeerServer(legacy bool) *mcp.Server {
	opts := &mcp.ServerOptions{Instructions: "A Go SDK server that mcp-wire's peer suite drives."}
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-peer", Version: "1.0.0"}, opts)

	mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Adds a and b."},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "countdown", Description: "Counts steps, reporting progress for each."},
		func(ctx context.Context, req *mcp.CallToolRequest, in countdownIn) (*mcp.CallToolResult, countdownOut, error) {
			if in.Steps < 1 || in.Steps > 20 {
				return nil, countdownOut{}, errors.New("steps must be between 1 and 20")
			}
			token := req.Params.GetProgressToken()
			for i := 1; i <= in.Steps; i++ {
				select {
				case <-ctx.Done():
					return nil, countdownOut{}, ctx.Err()
				case <-time.After(10 * time.Millisecond):
				}
				if token != nil {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i),
					})
					if err != nil {
						return nil, countdownOut{}, err
					}
				}
			}
			return nil, countdownOut{Done: in.Steps}, nil
		})

	server.AddResource(&mcp.Resource{Name: "notes", URI: notesURI, MIMEType: "text/plain", Description: "A short text."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: req.Params.URI, MIMEType: "text/plain", Text: "Notes served by the Go SDK peer."},
			}}, nil
		})

	server.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greets someone.",
		Arguments: []*mcp.PromptArgument{{Name: "name", Description: "Who to greet.", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A greeting", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + req.Params.Arguments["name"] + "."}},
			}}, nil
		})
	return server
}

func runServer(args []string) int {
	flags := flag.NewFlagSet("server", flag.ContinueOnError)
	httpAddr := flags.String("http", "", "serve Streamable HTTP at this address (host:port, port 0 for any), path /mcp")
	stateless := flags.Bool("stateless", false, "with -http: stateless Streamable HTTP (serves 2026-07-28)")
	legacy := flags.Bool("legacy", false, "support only the handshake-era versions (2025-11-25 and older)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	server := newPeerServer(*legacy)
	if *httpAddr == "" {
		if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Printf("server: %v", err)
			return 1
		}
		return 0
	}
	listener, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		log.Printf("server: %v", err)
		return 1
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: *stateless})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	// The suite reads this line to learn the port.
	fmt.Fprintf(os.Stdout, "listening http://%s/mcp\n", listener.Addr())
	if err := http.Serve(listener, mux); err != nil {
		log.Printf("server: %v", err)
		return 1
	}
	return 0
}
