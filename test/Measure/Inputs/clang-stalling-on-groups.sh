#!/bin/sh
# Stands in for clang in measure-group-limit.test: a module of a group of
# candidates (g*.ll) stalls STALL_SECONDS (default 18) before it is
# compiled, only one that contains STALL_ON when that is set (a symbol of
# one candidate, such as __tuner_c0); everything else is compiled at once
# by the real clang.
for arg in "$@"; do
  case "$(basename "$arg")" in
    g*.ll)
      if [ -z "${STALL_ON:-}" ] || grep -q "$STALL_ON" "$arg"; then
        sleep "${STALL_SECONDS:-18}"
      fi ;;
  esac
done
for c in clang-22 /usr/lib/llvm-22/bin/clang clang; do
  if command -v "$c" > /dev/null 2>&1; then
    exec "$c" "$@"
  fi
done
echo "no clang" >&2
exit 1
