# Shell helpers for scripts that drive an issue's announcement through the API (sourced).

# staff_publish_issue BASE KEY DIR TITLE: signs in with the staff access KEY, uploads a small
# PDF and publishes it as TITLE; sets `cookie` (the staff session) and `issue` (its id).
staff_publish_issue() {
  local base=$1 key=$2 dir=$3 title=$4
  cookie=$(curl -fs -D - -o /dev/null -H "Origin: $base" -H 'content-type: application/json' \
    -d "{\"access_key\":\"$key\"}" "$base/api/v1/session" | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p')
  printf '%%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%%%EOF\n' >"$dir/issue.pdf"
  issue=$(curl -fs -H "Origin: $base" -b "$cookie" -F "file=@$dir/issue.pdf;type=application/pdf" \
    "$base/api/v1/staff/magazines" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  curl -fs -o /dev/null -X PUT -H "Origin: $base" -b "$cookie" -H 'content-type: application/json' \
    -d "{\"title\":\"$title\",\"issue_date\":\"2026-12-01\",\"description\":\"An issue to announce.\",\"cover_url\":\"https://example.org/c.png\"}" \
    "$base/api/v1/staff/magazines/$issue/publication"
}
