/// The completion scripts `msa completion <shell>` prints.
///
/// Each script is small and the same for every version of the program: on Tab it runs
/// `<program> __complete -- <words before the cursor> <word under the cursor>` and offers what
/// that prints (``CompletionAnswer/protocolText``), so the command tree, its options and the
/// dynamic values are read at Tab time from the installed program and never go stale.
public enum CompletionScript {
  /// A shell msa writes a completion script for.
  public enum Shell: String, Sendable, CaseIterable {
    case bash, zsh, fish
  }

  /// The hidden command the scripts call.
  public static let entryName = "__complete"

  /// The script for `shell`, completing `programName`.
  public static func script(for shell: Shell, programName: String) -> String {
    let function =
      "_"
      + programName.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init)
      .joined()
    switch shell {
    case .bash: return bash(programName, function)
    case .zsh: return zsh(programName, function)
    case .fish: return fish(programName, function)
    }
  }

  private static func bash(_ program: String, _ function: String) -> String {
    """
    # bash completion for \(program), printed by `\(program) completion bash`.
    # Load it now with: source <(\(program) completion bash)
    \(function)() {
        local cur words cword
        if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
            _get_comp_words_by_ref -n =: cur words cword
        else
            cur="${COMP_WORDS[COMP_CWORD]}"
            words=("${COMP_WORDS[@]}")
            cword=$COMP_CWORD
        fi
        local quote=""
        case "$cur" in
            \\"*|\\'*) quote="${cur:0:1}"; cur="${cur:1}" ;;
        esac
        local IFS=$'\\n'
        local -a lines
        lines=($("${words[0]}" \(entryName) -- "${words[@]:1:cword-1}" "$cur" 2>/dev/null))
        COMPREPLY=()
        case "${lines[0]}" in
            files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
            directories) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
        esac
        local line value
        for line in "${lines[@]:1}"; do
            value="${line%%$'\\t'*}"
            if [[ -z "$quote" ]]; then value=$(printf '%q' "$value"); fi
            COMPREPLY+=("$value")
        done
        if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *= ]]; then
            compopt -o nospace 2>/dev/null
        fi
        return 0
    }
    complete -F \(function) \(program)

    """
  }

  private static func zsh(_ program: String, _ function: String) -> String {
    """
    #compdef \(program)
    # zsh completion for \(program), printed by `\(program) completion zsh`.
    # Load it now with: source <(\(program) completion zsh)
    \(function)() {
        local -a lines candidates
        local line value description
        lines=("${(@f)$(${words[1]} \(entryName) -- "${(@Q)words[2,CURRENT-1]}" "${(Q)words[CURRENT]}" 2>/dev/null)}")
        case ${lines[1]} in
            files) _files; return ;;
            directories) _files -/; return ;;
        esac
        for line in "${(@)lines[2,-1]}"; do
            [[ -z $line ]] && continue
            value=${line%%$'\\t'*}
            description=""
            [[ $line == *$'\\t'* ]] && description=${line#*$'\\t'}
            candidates+=("${value//:/\\\\:}:$description")
        done
        (( ${#candidates} )) && _describe -t values '\(program)' candidates
    }
    if [[ "${funcstack[1]}" == "\(function)" ]]; then
        \(function) "$@"
    else
        compdef \(function) \(program)
    fi

    """
  }

  private static func fish(_ program: String, _ function: String) -> String {
    """
    # fish completion for \(program), printed by `\(program) completion fish`.
    # Load it now with: \(program) completion fish | source
    function _\(function)
        set -l tokens (commandline -opc)
        set -l current (commandline -ct | string unescape)
        set -l lines ($tokens[1] \(entryName) -- $tokens[2..-1] "$current" 2>/dev/null)
        switch "$lines[1]"
            case files
                __fish_complete_path "$current"
            case directories
                __fish_complete_directories "$current"
            case values
                printf '%s\\n' $lines[2..-1]
        end
    end
    complete -c \(program) -f -a '(_\(function))'

    """
  }
}
