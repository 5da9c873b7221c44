"""schemathesis's command line, with one fix (scripts/fuzz.sh runs it with the fuzzing venv).

schemathesis 4.32.5 (the newest release) stops the whole run with "Invalid IPv6 URL" when a 2xx
JSON answer holds a string such as "http://[x" (a title the fuzzer itself wrote): looking for
links in answers, it splits every string that starts like an address, and urlsplit raises on
that one. Such a string is no link, so it is read as none, as every other non-link string is.
"""

import sys

from schemathesis.cli import schemathesis
from schemathesis.engine import observations

_same_origin_path = observations._same_origin_path


def same_origin_path(value, origin):
    try:
        return _same_origin_path(value, origin)
    except ValueError:
        return None


observations._same_origin_path = same_origin_path

if __name__ == "__main__":
    sys.exit(schemathesis())
