/// The completion scripts `msa completion <shell>` prints.
///
/// Each script is small and the same for every version of the program: on Tab it runs
/// `<program> __complete -- <words before the cursor> <word under the cursor>` and offers what
/// that prints (``CompletionAnswer/protocolText``), so the command tree, its options and the
/// dynamic values are read at Tab time from the installed program and never go stale.
///
/// Candidates are data, never shell input: each script reads the answer line by line without
/// word splitting or pathname expansion, never evaluates a line, and inserts each value quoted
/// by the shell's own rule (bash `printf %q`, zsh `compadd`, fish's own escaping). The header
/// of every script says so, with what the protocol guarantees.
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

  /// What every script's header says about the protocol and the candidates.
  static func header(_ program: String, reading: String) -> String {
    """
    #
    # Candidates are data, never shell input. `\(program) \(entryName) -- <words> <word>` prints
    # a first line (values, files or directories), then one candidate a line, as
    # value<TAB>description. \(program) never sends a value holding a control character (C0,
    # tab and line feed included, DEL, C1, bidi controls: the rule it applies to all device
    # text) and shows a description's controls as visible stand-ins, so no value can break a
    # line or reach the terminal raw. \(reading)
    # A value that begins with "-" is offered only after "--" (or as --option=value), never
    # where it would be read as an option; at most \(CompletionEngine.candidateLimit) candidates, \
    newest peers first.
    """
  }

  private static func bash(_ program: String, _ function: String) -> String {
    let header = header(
      program,
      reading: """
        This script reads the lines with `read -r` into
        # an array (no word splitting, no pathname expansion), never evaluates them, and inserts
        # each value quoted: printf %q, or escaped for the quote you opened.
        """)
    return #"""
      # bash completion for \#(program), printed by `\#(program) completion bash`.
      # Load it now with: source <(\#(program) completion bash)
      \#(header)

      # The line up to the cursor as the command will see it: words split on blanks outside
      # quotes, quotes and backslashes removed, a leading ~/ made $HOME/ (not in the word
      # under the cursor), nothing expanded or run. Sets \#(function)_words (the last is the
      # word under the cursor, possibly empty), \#(function)_quote (the quote still open there)
      # and \#(function)_strip (the start of that word readline leaves alone: up to its last =
      # or : outside quotes, when COMP_WORDBREAKS holds it).
      \#(function)_split() {
          local line="$1" word="" quote="" char strip="" started=""
          local -i i=0
          \#(function)_words=()
          while (( i < ${#line} )); do
              char="${line:i:1}"
              i+=1
              if [[ $quote == "'" ]]; then
                  if [[ $char == "'" ]]; then quote=""; else word+="$char"; fi
              elif [[ $char == "\\" ]]; then
                  started=1
                  char="${line:i:1}"
                  i+=1
                  if [[ $quote == '"' ]]; then
                      case "$char" in '"'|'\'|'$'|'`') ;; *) word+="\\" ;; esac
                  fi
                  word+="$char"
              elif [[ $quote == '"' ]]; then
                  if [[ $char == '"' ]]; then quote=""; else word+="$char"; fi
              elif [[ $char == "'" || $char == '"' ]]; then
                  quote="$char"
                  started=1
              elif [[ $char == [[:space:]] ]]; then
                  if [[ -n $started ]]; then
                      if [[ $word == "~/"* ]]; then word="$HOME/${word:2}"; fi
                      \#(function)_words+=("$word")
                  fi
                  word=""
                  started=""
                  strip=""
              else
                  word+="$char"
                  started=1
                  if [[ ($char == "=" || $char == ":") && $COMP_WORDBREAKS == *"$char"* ]]; then
                      strip="$word"
                  fi
              fi
          done
          \#(function)_words+=("$word")
          \#(function)_quote="$quote"
          \#(function)_strip="$strip"
      }

      \#(function)() {
          local \#(function)_quote \#(function)_strip line value typed
          local -a \#(function)_words lines
          line="${COMP_LINE-}"
          if [[ -n $line ]]; then
              line="${line:0:COMP_POINT}"
          else
              line="${COMP_WORDS[*]:0:COMP_CWORD+1}"
          fi
          \#(function)_split "$line"
          local -i count=${#\#(function)_words[@]}
          typed="${\#(function)_words[count-1]}"
          while IFS= read -r line; do
              lines+=("$line")
          done < <("${\#(function)_words[0]}" \#(entryName) -- \
              "${\#(function)_words[@]:1:count-2}" "$typed" 2>/dev/null)
          COMPREPLY=()
          case "${lines[0]}" in
              files|directories)
                  compopt -o filenames 2>/dev/null
                  while IFS= read -r line; do
                      COMPREPLY+=("$line")
                  done < <(compgen "-${lines[0]:0:1}" -- "$typed")
                  return 0 ;;
              values) ;;
              *) return 0 ;;
          esac
          compopt -o nosort 2>/dev/null
          for line in "${lines[@]:1}"; do
              value="${line%%$'\t'*}"
              if [[ $value == "$\#(function)_strip"* ]]; then
                  value="${value:${#\#(function)_strip}}"
              fi
              case "$\#(function)_quote" in
                  "'") value="${value//\'/\'\\\'\'}" ;;
                  '"')
                      value="${value//\\/\\\\}"
                      value="${value//\"/\\\"}"
                      value="${value//\$/\\\$}"
                      value="${value//\`/\\\`}" ;;
                  *) printf -v value '%q' "$value" ;;
              esac
              COMPREPLY+=("$value")
          done
          if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *= ]]; then
              compopt -o nospace 2>/dev/null
          fi
          return 0
      }
      complete -F \#(function) \#(program)

      """#
  }

  private static func zsh(_ program: String, _ function: String) -> String {
    let header = header(
      program,
      reading: """
        This script splits the answer on line feeds
        # only ("${(@f)…}" in double quotes: no word splitting, no globbing), never evaluates a
        # line, and hands the values to compadd, which quotes each as it is inserted.
        """)
    return #"""
      #compdef \#(program)
      # zsh completion for \#(program), printed by `\#(program) completion zsh`.
      # Load it now with: source <(\#(program) completion zsh)
      \#(header)
      \#(function)() {
          emulate -L zsh
          local -a lines values descriptions displays arguments expl listing
          local line value description program=${(Q)words[1]}
          local -i width=0 index
          [[ $program == '~/'* ]] && program=$HOME/${program#??}
          arguments=("${(@Q)words[2,CURRENT-1]}")
          lines=("${(@f)$("$program" \#(entryName) -- "${arguments[@]}" "${(Q)PREFIX}" 2>/dev/null)}")
          case ${lines[1]} in
              files) _files; return ;;
              directories) _files -/; return ;;
              values) ;;
              *) return 1 ;;
          esac
          for line in "${(@)lines[2,-1]}"; do
              [[ -n $line ]] || continue
              value=${line%%$'\t'*}
              description=""
              [[ $line == *$'\t'* ]] && description=${line#*$'\t'}
              values+=("$value")
              descriptions+=("$description")
              (( ${#value} > width )) && width=${#value}
          done
          (( ${#values} )) || return 1
          # Descriptions in one column after the longest value, as _describe lays them out.
          for (( index = 1; index <= ${#values}; index++ )); do
              if [[ -n ${descriptions[index]} ]]; then
                  displays+=("${(r:width:)values[index]}  -- ${descriptions[index]}")
                  listing=(-l)
              else
                  displays+=("${values[index]}")
              fi
          done
          _wanted -V values expl value compadd "${listing[@]}" -d displays -- "${values[@]}"
      }
      if [[ "${funcstack[1]}" == "\#(function)" ]]; then
          \#(function) "$@"
      else
          compdef \#(function) \#(program)
      fi

      """#
  }

  private static func fish(_ program: String, _ function: String) -> String {
    let header = header(
      program,
      reading: """
        This script takes the answer line by line from
        # a command substitution (fish never expands its output again) and prints the
        # value<TAB>description lines for complete -a, which escapes each value it inserts.
        """)
    return #"""
      # fish completion for \#(program), printed by `\#(program) completion fish`.
      # Load it now with: \#(program) completion fish | source
      \#(header)
      function _\#(function)
          set -l tokens (commandline -opc)
          set -l current (commandline -ct | string unescape)
          set -l lines (command $tokens[1] \#(entryName) -- $tokens[2..-1] "$current" 2>/dev/null)
          switch "$lines[1]"
              case files
                  __fish_complete_path "$current"
              case directories
                  __fish_complete_directories "$current"
              case values
                  printf '%s\n' $lines[2..-1]
          end
      end
      complete -c \#(program) -k -f -a '(_\#(function))'

      """#
  }
}
