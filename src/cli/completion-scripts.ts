/**
 * The shell side of `finctl completion`: thin functions that pass the words being typed to the
 * hidden `finctl __complete` and hand its candidates to the shell (see commands/completion.ts for
 * the protocol: candidate lines, then `:N` with 1 = complete file names, 2 = add no space).
 */

export function bashScript(): string {
  return `# bash completion for finctl. Load it with:  source <(finctl completion bash)
# or save it as ~/.local/share/bash-completion/completions/finctl
_finctl() {
    local out line value directive=0
    COMPREPLY=()
    out=$("\${COMP_WORDS[0]}" __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    while IFS= read -r line; do
        case "$line" in
            '') ;;
            :*) directive=\${line#:} ;;
            # a name with spaces (an account's) goes in escaped, as printf %q writes it
            *) value="\${line%%$'\\t'*}"; [[ $value == *' '* ]] && printf -v value '%q' "$value"; COMPREPLY+=("$value") ;;
        esac
    done <<< "$out"
    if (( directive & 2 )); then compopt -o nospace 2>/dev/null; fi
    if (( \${#COMPREPLY[@]} == 0 && (directive & 1) )); then compopt -o default 2>/dev/null; fi
    return 0
}
complete -F _finctl finctl
`
}

export function zshScript(): string {
  return `#compdef finctl
# zsh completion for finctl. Save it as _finctl in a folder of $fpath (before compinit runs),
# or load it with:  source <(finctl completion zsh)   (after compinit)
_finctl() {
  local out line directive=0
  local -a items described
  out=$("\${words[1]}" __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  for line in "\${(@f)out}"; do
    if [[ -z $line ]]; then continue; fi
    if [[ $line == :* ]]; then directive=\${line#:}; continue; fi
    items+=("\${line%%$'\\t'*}")
    if [[ $line == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      described+=("\${line//:/\\\\:}")
    fi
  done
  if (( \${#items} == 0 )); then
    if (( directive & 1 )); then _files; fi
    return
  fi
  if (( directive & 2 )); then
    compadd -S '' -- "\${items[@]}"
  else
    _describe -t values finctl described
  fi
}
if [[ "\${funcstack[1]}" == "_finctl" ]]; then
  _finctl "$@"
else
  compdef _finctl finctl
fi
`
}

export function fishScript(): string {
  return `# fish completion for finctl. Save it as ~/.config/fish/completions/finctl.fish,
# or load it with:  finctl completion fish | source
function __finctl_complete
    set -l args (commandline -opc)
    set -e args[1]
    set -l cur (commandline -ct)
    set -l out (finctl __complete -- $args "$cur" 2>/dev/null)
    or return
    set -l directive 0
    set -l items
    for line in $out
        if string match -q -- ':*' $line
            set directive (string sub -s 2 -- $line)
        else if test -n "$line"
            set -a items $line
        end
    end
    if test (count $items) -eq 0
        if contains -- $directive 1 3
            __fish_complete_path "$cur"
        end
        return
    end
    printf '%s\\n' $items
end
complete -c finctl -f -a '(__finctl_complete)'
`
}
