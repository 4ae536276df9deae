package main

// The SDK's client: one session against a server, a fixed script of steps, one JSON line per step
// on stdout ({"step", "value"} or {"step", "error"}). The suite (suite.ts) asserts on those lines,
// so this program only observes and reports; it decides nothing.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type stepLine struct {
	Step  string     `json:"step"`
	Value any        `json:"value,omitempty"`
	Error *stepError `json:"error,omitempty"`
}

type stepError struct {
	Code    int64  `json:"code,omitempty"`
	Message string `json:"message"`
}

func report(step string, value any, err error) {
	line := stepLine{Step: step, Value: value}
	if err != nil {
		line.Value = nil
		line.Error = &stepError{Message: err.Error()}
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			line.Error.Code = wire.Code
		}
	}
	out, _ := json.Marshal(line)
	fmt.Println(string(out))
}

func runClient(args []string) int {
	flags := flag.NewFlagSet("client", flag.ContinueOnError)
	version := flags.String("version", "", "the protocol version to ask for (default: the SDK's latest)")
	streamable := flags.String("url", "", "reach the server over Streamable HTTP at this URL")
	sse := flags.String("sse", "", "reach the server over the legacy HTTP+SSE transport at this URL")
	script := flags.String("script", "full", "full: every step; golden: the steps whose answers are the same on every run (no get_time, no cancellation); short: connect, tools/list, one call, close")
	skipPing := flags.Bool("skip-ping", false, "leave out the last step, ping")
	twoWay := flags.Bool("two-way", false, "also call the tools that ask the client (greet, summarize, list_roots)")
	prompt := flags.String("prompt", "explain_topic", "the prompt to get: with -prompt-args, then with no arguments")
	promptArgs := flags.String("prompt-args", `{"topic":"lifecycle"}`, "the prompt's arguments, as a JSON object of strings")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	promptArguments := map[string]string{}
	if err := json.Unmarshal([]byte(*promptArgs), &promptArguments); err != nil {
		fmt.Fprintln(os.Stderr, "client: -prompt-args:", err)
		return 2
	}

	var progressSeen atomic.Int32
	firstProgress := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-peer-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, _ *mcp.ProgressNotificationClientRequest) {
			progressSeen.Add(1)
			select {
			case firstProgress <- struct{}{}:
			default:
			}
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Gopher"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "go-peer-model", Role: "assistant", Content: &mcp.TextContent{Text: "A one-sentence summary."}}, nil
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///tmp/go-peer-root", Name: "go-peer-root"})

	var transport mcp.Transport
	var cmd *exec.Cmd
	switch {
	case *streamable != "":
		transport = &mcp.StreamableClientTransport{Endpoint: *streamable}
	case *sse != "":
		transport = &mcp.SSEClientTransport{Endpoint: *sse}
	default:
		rest := flags.Args()
		if len(rest) == 0 {
			fmt.Fprintln(os.Stderr, "client: give a server command after --, or -url / -sse")
			return 2
		}
		cmd = exec.Command(rest[0], rest[1:]...)
		cmd.Stderr = os.Stderr
		transport = &mcp.CommandTransport{Command: cmd}
	}

	ctx, stop := context.WithTimeout(context.Background(), 60*time.Second)
	defer stop()
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: *version})
	if err != nil {
		report("connect", nil, err)
		return 1
	}
	init := session.InitializeResult()
	report("connect", map[string]any{"protocolVersion": init.ProtocolVersion, "serverInfo": init.ServerInfo, "capabilities": init.Capabilities}, nil)

	toolNames, err := namesOf(session.Tools(ctx, nil), func(tool *mcp.Tool) string { return tool.Name })
	report("tools/list", toolNames, err)

	call := func(step, name string, arguments any) {
		result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
		report(step, result, err)
	}
	call("call add good", "add", map[string]any{"a": 3, "b": 4})
	if *script == "full" || *script == "golden" {
		call("call add bad", "add", map[string]any{"a": "three", "b": 4})
		call("call echo good", "echo", map[string]any{"text": "hello from Go"})
		call("call echo bad", "echo", map[string]any{})
		if *script == "full" {
			call("call get_time good", "get_time", map[string]any{})
			call("call get_time bad", "get_time", map[string]any{"zone": "UTC"})
		}
		call("call countdown good", "countdown", map[string]any{"steps": 2, "intervalMs": 5})
		call("call countdown bad", "countdown", map[string]any{"steps": 0})
		call("call unknown tool", "no_such_tool", map[string]any{})

		// The notes are 140 KB that change with every edit of PROTOCOL_NOTES.md: no part of a golden.
		if *script == "full" {
			read, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docs://demo/protocol-notes"})
			if err == nil && len(read.Contents) > 0 {
				first := read.Contents[0]
				report("resources/read", map[string]any{"uri": first.URI, "mimeType": first.MIMEType, "textLength": len(first.Text), "startsWith": prefix(first.Text, 40)}, nil)
			} else {
				report("resources/read", read, err)
			}
		}

		promptNames, err := namesOf(session.Prompts(ctx, nil), func(prompt *mcp.Prompt) string { return prompt.Name })
		report("prompts/list", promptNames, err)
		got, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: *prompt, Arguments: promptArguments})
		if err == nil {
			roles := []string{}
			for _, message := range got.Messages {
				roles = append(roles, string(message.Role))
			}
			report("prompts/get good", map[string]any{"description": got.Description, "roles": roles}, nil)
		} else {
			report("prompts/get good", nil, err)
		}
		_, err = session.GetPrompt(ctx, &mcp.GetPromptParams{Name: *prompt, Arguments: map[string]string{}})
		report("prompts/get bad", nil, err)

		before := progressSeen.Load()
		params := &mcp.CallToolParams{Name: "countdown", Arguments: map[string]any{"steps": 3, "intervalMs": 10}}
		params.SetProgressToken("go-progress-1")
		result, err := session.CallTool(ctx, params)
		// The SDK hands each notification to its handler on a goroutine of its own, so the last
		// ones may still be on their way when the result is back: wait a little for them.
		for wait := 0; err == nil && progressSeen.Load()-before < 3 && wait < 40; wait++ {
			time.Sleep(50 * time.Millisecond)
		}
		report("progress", map[string]any{"notifications": progressSeen.Load() - before, "result": result}, err)

		if *script == "full" {
			cancelCountdown(ctx, session, firstProgress)
		}

		if *twoWay {
			call("elicitation (greet)", "greet", map[string]any{})
			call("sampling (summarize)", "summarize", map[string]any{"text": "The Go SDK talks to mcp-wire over MCP."})
			call("roots (list_roots)", "list_roots", map[string]any{})
		}
		// Last, since 2026-07-28 has no ping: over HTTP the SDK ends its session when one is refused.
		if !*skipPing {
			report("ping", "pong", session.Ping(ctx, nil))
		}
	}

	closeErr := session.Close()
	exit := map[string]any{"closeError": errText(closeErr)}
	if cmd != nil && cmd.ProcessState != nil {
		exit["serverExitCode"] = cmd.ProcessState.ExitCode()
	}
	report("close", exit, nil)
	return 0
}

// cancelCountdown starts a long countdown, cancels its context at the first progress notification
// (the SDK then sends notifications/cancelled, or on 2026-07-28 HTTP closes the request's stream),
// and checks with echo that the server still serves.
func cancelCountdown(ctx context.Context, session *mcp.ClientSession, firstProgress chan struct{}) {
	for len(firstProgress) > 0 {
		<-firstProgress
	}
	cancelCtx, cancel := context.WithCancel(ctx)
	long := &mcp.CallToolParams{Name: "countdown", Arguments: map[string]any{"steps": 100, "intervalMs": 100}}
	long.SetProgressToken("go-cancel-1")
	done := make(chan error, 1)
	go func() {
		_, err := session.CallTool(cancelCtx, long)
		done <- err
	}()
	select {
	case <-firstProgress:
	case <-time.After(10 * time.Second):
	}
	cancel()
	callErr := <-done
	after, echoErr := session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "still there"}})
	cancelled := map[string]any{"callError": errText(callErr), "contextCanceled": errors.Is(callErr, context.Canceled), "echoAfter": after, "echoAfterError": errText(echoErr)}
	report("cancel", cancelled, nil)
}

// namesOf lists every page of a list method (the SDK's iterator follows nextCursor).
func namesOf[T any](items iter.Seq2[*T, error], name func(*T) string) ([]string, error) {
	names := []string{}
	for item, err := range items {
		if err != nil {
			return nil, err
		}
		names = append(names, name(item))
	}
	return names, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func prefix(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return text[:n]
}
