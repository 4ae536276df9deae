// `mcp-wire completion bash|zsh|fish`: a shell completion script for the commands and flags,
// written from vocabulary.ts's table, the one the parser reads, so that it offers every word the
// parser takes and no other. After "--" the words are the server's: file names are offered there.

import { COMMANDS, FLAGS, SHELLS, type FlagWord, type Shell } from "./vocabulary.js";

export { SHELLS } from "./vocabulary.js";

export function completionScript(shell: Shell): string {
  switch (shell) {
    case "bash": return bash();
    case "zsh": return zsh();
    case "fish": return fish();
  }
}

const words = (list: readonly string[]): string => list.join(" ");
const commandNames = COMMANDS.map((command) => command.name);
const flagNames = FLAGS.map((flag) => flag.name);
const flags: readonly FlagWord[] = FLAGS;
/** The flags that take a value, grouped by what a shell can offer for it. */
const withValue = (kind: "file" | "directory" | "other"): FlagWord[] =>
  flags.filter((flag) => flag.value !== undefined && (flag.completes === kind || (kind === "other" && flag.completes === undefined)));
const withChoices = (): (FlagWord & { completes: readonly string[] })[] =>
  flags.filter((flag): flag is FlagWord & { completes: readonly string[] } => Array.isArray(flag.completes));
const names = (flags: FlagWord[]): string => flags.map((flag) => flag.name).join("|");

function bash(): string {
  return `# mcp-wire completion for bash. Install: add to ~/.bashrc
#   source <(mcp-wire completion bash)
_mcp_wire() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ "\${COMP_WORDS[i]}" == "--" ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi
  done
  case "$prev" in
    ${names(withValue("file"))}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    ${names(withValue("directory"))}) COMPREPLY=($(compgen -d -- "$cur")); return ;;
${withChoices().map((flag) => `    ${flag.name}) COMPREPLY=($(compgen -W "${words(flag.completes)}" -- "$cur")); return ;;`).join("\n")}
    ${names(withValue("other"))}) COMPREPLY=(); return ;;
    completion) COMPREPLY=($(compgen -W "${words(SHELLS)}" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(flagNames)}" -- "$cur")); return; fi
  COMPREPLY=($(compgen -W "${words(commandNames)}" -- "$cur"))
}
complete -F _mcp_wire mcp-wire`;
}

/** A zsh word with its description, as `_describe` takes it: the colon in either escaped. */
const described = (name: string, about: string): string => `'${name.replace(/:/g, "\\:")}:${about.replace(/'/g, "").replace(/:/g, "\\:")}'`;

function zsh(): string {
  return `#compdef mcp-wire
# mcp-wire completion for zsh. Install: add to ~/.zshrc (after compinit)
#   source <(mcp-wire completion zsh)
# or save it as _mcp-wire in a directory of your $fpath.
_mcp_wire() {
  local -a commands flags
  commands=(${COMMANDS.map((command) => described(command.name, command.about)).join(" ")})
  flags=(${flags.map((flag) => described(flag.name, flag.about)).join(" ")})
  if (( \${words[(I)--]} > 0 && \${words[(I)--]} < CURRENT )); then _files; return; fi
  case "\${words[CURRENT-1]}" in
    ${names(withValue("file"))}) _files; return ;;
    ${names(withValue("directory"))}) _directories; return ;;
${withChoices().map((flag) => `    ${flag.name}) compadd -- ${words(flag.completes)}; return ;;`).join("\n")}
    ${names(withValue("other"))}) return ;;
    completion) compadd -- ${words(SHELLS)}; return ;;
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then _describe -t flags 'mcp-wire flag' flags; return; fi
  _describe -t commands 'mcp-wire command' commands
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then _mcp_wire "$@"; else compdef _mcp_wire mcp-wire; fi`;
}

function fish(): string {
  const quoted = (text: string): string => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const flagLine = (flag: FlagWord): string => {
    const spelled = flag.name.startsWith("--") ? `-l ${flag.name.slice(2)}` : `-s ${flag.name.slice(1)}`;
    const value = flag.value === undefined ? ""
      : flag.completes === "file" ? " -r -F"
        : flag.completes === "directory" ? " -x -a '(__fish_complete_directories)'"
          : Array.isArray(flag.completes) ? ` -x -a ${quoted(words(flag.completes))}` : " -x";
    return `complete -c mcp-wire ${spelled}${value} -d ${quoted(flag.about)}`;
  };
  return [
    "# mcp-wire completion for fish. Install:",
    "#   mcp-wire completion fish > ~/.config/fish/completions/mcp-wire.fish",
    "complete -c mcp-wire -f",
    ...COMMANDS.map((command) => `complete -c mcp-wire -n __fish_use_subcommand -a ${command.name} -d ${quoted(command.about)}`),
    ...flags.map(flagLine),
    `complete -c mcp-wire -n '__fish_seen_subcommand_from completion' -a ${quoted(words(SHELLS))}`,
  ].join("\n");
}
