# bash completion for evalcli. Subcommands and options are read from
# `evalcli --help` / `evalcli SUBCOMMAND --help`, so new metrics and options
# complete without editing this file.
_evalcli_help_words() {
  # Option names (-x, --long) and, for the top level, subcommand names.
  "$@" --help 2>/dev/null | sed -n -e 's/^  \(-[^ ]*\).*/\1/p' -e '/^Subcommands:/,$ s/^  \([a-z][a-z0-9-]*\) .*/\1/p' |
    tr ',' '\n'
}

_evalcli() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null 2>&1; then
    _init_completion || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local subcommand="" i
  for ((i = 1; i < cword; i++)); do
    if [[ ${words[i]} != -* ]]; then
      subcommand=${words[i]}
      break
    fi
  done

  case $prev in
    -tok | --tokenize)
      # The registry's names, from the error an unknown tokenizer gives.
      local known
      known=$("${words[0]}" tokenize --tokenize ' ' </dev/null 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ',')
      COMPREPLY=($(compgen -W "$known" -- "$cur"))
      return
      ;;
    -f | --format)
      COMPREPLY=($(compgen -W "text json" -- "$cur"))
      return
      ;;
  esac

  if [[ -z $subcommand ]]; then
    COMPREPLY=($(compgen -W "$(_evalcli_help_words "${words[0]}")" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_evalcli_help_words "${words[0]}" "$subcommand")" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _evalcli evalcli
