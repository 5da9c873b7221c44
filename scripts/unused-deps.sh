#!/usr/bin/env bash
# Fails when a crate of the workspace declares a dependency its code never names (the check
# cargo-machete makes: a dependency is used when its crate name appears in the sources).
# A dependency needed without being named (a feature switch, a linked library) is listed in
# its Cargo.toml under [package.metadata.unused-deps] ignored = ["name"].
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
status=0
for manifest in $(git ls-files '*Cargo.toml' | grep -v '^Cargo.toml$'); do
  dir=$(dirname "$manifest")
  ignored=$(awk '/^\[package\.metadata\.unused-deps\]/ { on = 1; next } /^\[/ { on = 0 }
    on && /^ignored/ { gsub(/.*\[|\].*|"| /, ""); gsub(/,/, " "); print }' "$manifest")
  deps=$(awk '/^\[(dev-|build-)?dependencies\]/ { on = 1; next } /^\[/ { on = 0 }
    on && /^[A-Za-z0-9_-]+[ .=]/ { sub(/[ .=].*/, ""); print }' "$manifest")
  for dep in $deps; do
    case " $ignored " in *" $dep "*) continue ;; esac
    name=${dep//-/_}
    if ! grep -rqE "(^|[^A-Za-z0-9_])${name}(::|!|[[:space:]]*;|[[:space:]]+as[[:space:]])" \
      --include='*.rs' "$dir" 2>/dev/null; then
      echo "unused dependency: $dep in $manifest" >&2
      status=1
    fi
  done
done
[ "$status" -eq 0 ] && echo "dependencies: every declared crate is used"
exit "$status"
