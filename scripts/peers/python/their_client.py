"""The Python SDK's client (mcp 2) against one of our servers: one session, one JSON line per check.

    python their_client.py --server demo|textbook --era VERSION --transport stdio --exit-file F -- CMD...
    python their_client.py --server demo --era VERSION --transport streamable-http|http+sse --url URL

--era is the protocol version this session must end up speaking. A handshake-era version
(2024-11-05 .. 2025-11-25) connects with mode="legacy" (the initialize handshake); the SDK offers
only its newest handshake version in initialize, so an older one is offered by setting the
constant it reads (mcp.client.session.LATEST_HANDSHAKE_VERSION), as a host pinned to an older SDK
would. 2026-07-28 connects with mode="auto": server/discover, adopted when the server answers it.
Over stdio the server runs under `sh`, which writes its exit code to --exit-file once it ends.
Each check prints {"name", "ok", "detail"}; scripts/peers/python/suite.ts turns them into ctx.check.
"""

import argparse
import json
import sys
import time
from typing import Any

import anyio
import mcp_types as types
from mcp_types.version import is_version_at_least

import mcp.client.session as session_module
from mcp.client import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

MODERN = "2026-07-28"
NOTES_URI = "docs://demo/protocol-notes"


NEGOTIATED: dict[str, str] = {}


def emit(name: str, ok: bool, detail: str = "") -> None:
    """One check's line; `era` is the version the session negotiated (none before it has)."""
    print(json.dumps({"name": name, "ok": ok, "detail": detail, "era": NEGOTIATED.get("version")}), flush=True)


async def check(name: str, body: Any) -> None:
    """Runs one check; an AssertionError, an MCPError or any other exception is its failure."""
    try:
        detail = await body()
        emit(name, True, detail or "")
    except Exception as error:  # a check's failure is reported, the session goes on
        emit(name, False, f"{type(error).__name__}: {error}")


def text_of(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def expect_tool_error(result: types.CallToolResult, words: str) -> str:
    assert result.is_error is True, f"expected isError: true, got {result.model_dump(by_alias=True)}"
    assert words in text_of(result), f"expected {words!r} in {text_of(result)!r}"
    return text_of(result)


async def expect_rpc_error(code: int, call: Any, message: str | None = None) -> str:
    """The call must fail with this JSON-RPC code (and, when given, exactly this message)."""
    try:
        await call()
    except MCPError as error:
        assert error.code == code, f"expected JSON-RPC error {code}, got {error.code} {error}"
        assert message is None or str(error) == message, f"expected {message!r}, got {str(error)!r}"
        return f"{error.code} {error}"
    raise AssertionError(f"expected JSON-RPC error {code}, got a result")


async def sampling(_context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="a short summary from the Python peer"),
        model="python-peer-model", stop_reason="endTurn")


async def elicitation(_context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def roots(_context: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/python-peer", name="python peer")])


async def session_checks(client: Client, args: argparse.Namespace) -> None:
    demo = args.server == "demo"
    # What changed between versions, as our server must follow it:
    # before 2025-11-25 invalid arguments are a protocol error (-32602), from it on a tool execution
    # error (isError) the model can read (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling);
    # structuredContent and elicitation arrived in 2025-06-18; ping is gone from 2026-07-28.
    version = NEGOTIATED["version"] = client.protocol_version
    arguments_are_tool_errors = is_version_at_least(version, "2025-11-25")
    has_structured = is_version_at_least(version, "2025-06-18")
    # Our server with --session-per-post answers each handshake-era POST with plain JSON from a
    # session of its own: no progress on the way, no request back to the client, and a
    # notifications/cancelled (its own POST) reaches no running call. 2026-07-28 needs no session.
    one_shot = args.session_per_post and version != MODERN

    def bad_arguments(call: Any, words: str) -> Any:
        if arguments_are_tool_errors:
            return _awaited(expect_tool_error, call(), words)
        return expect_rpc_error(types.INVALID_PARAMS, call)

    async def negotiated() -> str:
        # The textbook server speaks 2025-11-25 of the handshake era only: it answers an older offer
        # with 2025-11-25, which the SDK accepts (basic/lifecycle#version-negotiation).
        wanted = "2025-11-25" if args.server == "textbook" and args.era != MODERN else args.era
        assert version == wanted, f"offered {args.era}, negotiated {version}, wanted {wanted}"
        if args.era == MODERN:
            assert client.session.discover_result is not None, "2026-07-28 without a server/discover result"
        else:
            assert client.session.initialize_result is not None, "a handshake era without initialize"
        info = client.server_info
        return f"{version} with {info.name if info else 'an anonymous server'}"
    await check(f"{'server/discover' if args.era == MODERN else 'initialize'} offering {args.era}", negotiated)

    async def list_tools() -> str:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        wanted = {"echo", "add", "get_time", "countdown"} | ({"greet", "summarize", "toggle_extra"} if demo else set())
        assert wanted <= set(names), f"missing {sorted(wanted - set(names))} in {names}"
        return ", ".join(names)
    await check("tools/list", list_tools)

    async def echo_good() -> str:
        result = await client.call_tool("echo", {"text": "hi from Python"})
        assert result.is_error is not True and text_of(result) == "echo: hi from Python", text_of(result)
        return text_of(result)
    await check("tools/call echo", echo_good)
    outcome = "isError" if arguments_are_tool_errors else "-32602"
    await check(f"tools/call echo without text: {outcome}",
                lambda: bad_arguments(lambda: client.call_tool("echo", {}), 'missing required property "text"'))

    async def add_good() -> str:
        result = await client.call_tool("add", {"a": 3, "b": 4})
        assert json.loads(text_of(result)) == {"sum": 7}, text_of(result)
        if not has_structured:
            assert result.structured_content is None, f"structuredContent before 2025-06-18: {result.structured_content}"
            return f"text {text_of(result)} (no structuredContent before 2025-06-18)"
        assert result.structured_content == {"sum": 7}, f"structuredContent {result.structured_content}"
        return f"structuredContent {json.dumps(result.structured_content)} (checked against the outputSchema by the SDK)"
    await check("tools/call add", add_good)
    await check(f"tools/call add a=\"x\": {outcome}",
                lambda: bad_arguments(lambda: client.call_tool("add", {"a": "x", "b": 1}), "a: must be number"))

    async def get_time() -> str:
        result = await client.call_tool("get_time", {})
        assert result.is_error is not True and text_of(result), f"{result}"
        return text_of(result)
    await check("tools/call get_time", get_time)
    # The textbook's error messages are its own shorter words (same codes and data).
    unknown_tool = ('tools/call: "name" names no tool of this server: "no_such_tool"' if demo
                    else "tools/call: no tool named no_such_tool")
    await check("tools/call of an unknown tool: -32602",
                lambda: expect_rpc_error(types.INVALID_PARAMS, lambda: client.call_tool("no_such_tool", {}), unknown_tool))

    async def countdown_progress() -> str:
        seen: list[float] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen.append(progress)
        result = await client.call_tool("countdown", {"steps": 3, "intervalMs": 10}, progress_callback=on_progress)
        assert result.is_error is not True, text_of(result)
        if one_shot:
            assert seen == [], f"progress on a JSON answer: {seen}"
            return f"no progress (a JSON answer), then {text_of(result)!r}"
        assert len(seen) == 3 and seen == sorted(seen), f"progress {seen}"
        return f"progress {seen}, then {text_of(result)!r}"
    await check("tools/call countdown with progress", countdown_progress)
    await check(f"tools/call countdown steps=0: {outcome}",
                lambda: bad_arguments(lambda: client.call_tool("countdown", {"steps": 0}), "steps: must be >= 1"))

    async def cancel() -> str:
        first = anyio.Event()
        finished: list[Any] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            first.set()
        with anyio.move_on_after(20) as guard:
            async with anyio.create_task_group() as group:
                async def long_call() -> None:
                    finished.append(await client.call_tool("countdown", {"steps": 50, "intervalMs": 100},
                                                           progress_callback=on_progress))
                group.start_soon(long_call)
                if one_shot:
                    await anyio.sleep(0.5)  # no progress will come to wait for
                else:
                    await first.wait()
                group.cancel_scope.cancel()
        assert not guard.cancelled_caught, "no progress within 20 s"
        assert not finished, f"the cancelled call got a result: {finished}"
        after = await client.call_tool("echo", {"text": "still here"})
        assert text_of(after) == "echo: still here", text_of(after)
        return f"cancelled {'after 0.5 s' if one_shot else 'after the first progress'}; the next call is answered"
    if not args.golden:  # how many progress notifications precede the cancel is timing: no golden
        await check("cancel a countdown (notifications/cancelled)", cancel)

    async def read_notes() -> str:
        result = await client.read_resource(NOTES_URI)
        text = "".join(c.text for c in result.contents if isinstance(c, types.TextResourceContents))
        assert result.contents[0].mime_type == "text/markdown" and "MCP" in text, f"{result.contents[0]}"
        return f"{len(text)} characters of text/markdown"
    await check("resources/read the protocol notes", read_notes)

    async def prompts() -> str:
        names = sorted(p.name for p in (await client.list_prompts()).prompts)
        assert names == ["explain_topic", "review_message"], names
        got = await client.get_prompt("explain_topic", {"topic": "lifecycle"})
        assert got.messages and got.messages[0].role == "user", f"{got}"
        return f"{', '.join(names)}; explain_topic gave {len(got.messages)} message(s)"

    ping_line = '{"jsonrpc":"2.0","id":1,"method":"ping"}'

    async def textbook_prompts() -> str:  # the textbook's one prompt (src/textbook/demo.ts)
        names = [p.name for p in (await client.list_prompts()).prompts]
        assert names == ["review_message"], names
        got = await client.get_prompt("review_message", {"message": ping_line})
        assert got.description == "Review one MCP message" and len(got.messages) == 1, f"{got}"
        said = got.messages[0].content
        assert got.messages[0].role == "user" and isinstance(said, types.TextContent), f"{got}"
        assert said.text.startswith(f"Here is an MCP message sent under protocol version 2025-11-25:\n{ping_line}\n"), said.text
        return f"{', '.join(names)}; review_message gave 1 message"
    if demo:
        await check("prompts/list and prompts/get explain_topic", prompts)
        await check("prompts/get explain_topic without topic: -32602",
                    lambda: expect_rpc_error(types.INVALID_PARAMS, lambda: client.get_prompt("explain_topic", {}),
                                             'prompts/get: "arguments.topic" is required by prompt "explain_topic"'))
    else:
        await check("prompts/list and prompts/get review_message", textbook_prompts)
        await check("prompts/get review_message without message: -32602",
                    lambda: expect_rpc_error(types.INVALID_PARAMS, lambda: client.get_prompt("review_message", {}),
                                             'prompts/get: "message" must be of type string, got undefined'))

    if version == MODERN:
        # The SDK still sends it when asked (with an MCPDeprecationWarning); a modern server refuses it.
        await check("ping is not a 2026-07-28 method: -32601",
                    lambda: expect_rpc_error(types.METHOD_NOT_FOUND, client.send_ping))
    else:
        async def ping() -> str:
            await client.send_ping()
            return "empty result"
        await check("ping", ping)

    if not demo:
        return

    if one_shot:
        for tool, arguments in (("summarize", {"text": "t"}), ("greet", {})):
            await check(f"{tool} with no channel back to the client: isError", lambda tool=tool, arguments=arguments: _awaited(
                expect_tool_error, client.call_tool(tool, arguments), "has no channel back to the client"))
        return

    async def summarize() -> str:
        result = await client.call_tool("summarize", {"text": "The Model Context Protocol connects hosts and servers."})
        assert result.is_error is not True and "a short summary from the Python peer" in text_of(result), text_of(result)
        return text_of(result)
    await check("sampling: summarize asks our callback", summarize)

    async def greet() -> str:
        result = await client.call_tool("greet", {})
        assert result.is_error is not True and "Ada" in text_of(result), text_of(result)
        return text_of(result)

    async def greet_unasked() -> str:
        # The SDK declares elicitation whatever version it offers; before 2025-06-18 there is no
        # elicitation/create to send, so our server must not ask (and says why).
        return expect_tool_error(await client.call_tool("greet", {}), f"protocol {version} has no elicitation")
    if has_structured:
        await check("elicitation: greet asks our callback", greet)
    else:
        await check("elicitation before 2025-06-18: greet does not ask, isError", greet_unasked)

    if args.roots:
        async def list_roots() -> str:
            result = await client.call_tool("list_roots", {})
            assert result.is_error is not True and "file:///tmp/python-peer" in text_of(result), text_of(result)
            return text_of(result)
        await check("roots: list_roots asks our callback", list_roots)


async def _awaited(then: Any, call: Any, *rest: Any) -> Any:
    return then(await call, *rest)


def transport_of(args: argparse.Namespace) -> Any:
    if args.transport == "stdio":
        # sh keeps the server's exit code once the SDK has closed its stdin.
        script = '"$@"; echo $? > "$MCP_WIRE_EXIT_FILE"'
        return StdioServerParameters(command="sh", args=["-c", script, "sh", *args.command],
                                     env={"MCP_WIRE_EXIT_FILE": args.exit_file})
    if args.transport == "http+sse":
        return sse_client(args.url)
    return args.url


async def main(args: argparse.Namespace) -> None:
    mode = "auto" if args.era == MODERN else "legacy"
    if mode == "legacy":
        session_module.LATEST_HANDSHAKE_VERSION = args.era
    client = Client(transport_of(args), mode=mode, sampling_callback=sampling, elicitation_callback=elicitation,
                    list_roots_callback=roots if args.roots else None, read_timeout_seconds=30)
    async with client:
        await session_checks(client, args)
    if args.transport == "stdio":
        async def exited_zero() -> str:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    with open(args.exit_file) as file:
                        code = file.read().strip()
                    if code:
                        assert code == "0", f"the server exited {code}"
                        return "the server exited 0 after the SDK closed its stdin"
                except FileNotFoundError:
                    pass
                await anyio.sleep(0.05)
            raise AssertionError("the server did not exit (no exit code within 5 s of the close)")
        await check("close: the server exits 0", exited_zero)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", choices=["demo", "textbook"], required=True)
    parser.add_argument("--era", required=True)
    parser.add_argument("--transport", choices=["stdio", "streamable-http", "http+sse"], required=True)
    parser.add_argument("--url")
    parser.add_argument("--exit-file")
    parser.add_argument("--golden", action="store_true", help="leave out the checks whose traffic depends on timing")
    parser.add_argument("--session-per-post", action="store_true", help="the server runs with --session-per-post")
    parser.add_argument("--roots", action="store_true", help="the server has --roots-tool: check roots/list")
    parser.add_argument("command", nargs="*")
    parsed = parser.parse_args()
    try:
        anyio.run(main, parsed)
    except Exception as error:  # the session itself failed: say so as a check, not a traceback alone
        emit("session", False, f"{type(error).__name__}: {error}")
        sys.exit(1)
