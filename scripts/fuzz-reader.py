"""A signed-in reader for contract fuzzing (scripts/fuzz.sh): registers an account through the
API, follows the confirmation link in the email the app wrote to its outbox folder (no
SMTP_URL), signs in, and prints the `agora_reader` cookie's value.

    fuzz-reader.py BASE_URL OUTBOX_DIR
"""

import email
import email.policy
import glob
import json
import os
import re
import sys
import time
import urllib.request

EMAIL = "fuzz.reader@example.org"
PASSWORD = "fuzzing reader"


def call(base, method, path, body=None):
    request = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer


def confirmation_token(outbox):
    """The token in the confirmation email to EMAIL, once the outbox has written it."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for path in glob.glob(os.path.join(outbox, "*")):
            with open(path, "rb") as f:
                message = email.message_from_binary_file(f, policy=email.policy.default)
            to = message["To"]
            if to is None or EMAIL not in (a.addr_spec for a in to.addresses):
                continue
            # The text part, decoded from whatever transfer encoding it was sent in.
            text = message.get_body(preferencelist=("plain", "html")).get_content()
            found = re.search(r"/email/confirm\?token=([A-Za-z0-9_-]+)", text)
            if found:
                return found.group(1)
        time.sleep(0.2)
    sys.exit(f"fuzz-reader: no confirmation email to {EMAIL} in {outbox}")


def main():
    base, outbox = sys.argv[1], sys.argv[2]
    call(
        base,
        "POST",
        "/api/v1/accounts",
        {
            "first_name": "Fuzz",
            "last_name": "Reader",
            "email": EMAIL,
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "interests": ["Human Rights"],
        },
    )
    call(base, "GET", f"/api/v1/accounts/confirm?token={confirmation_token(outbox)}")
    answer = call(base, "POST", "/api/v1/reader/session", {"email": EMAIL, "password": PASSWORD})
    for header in answer.headers.get_all("set-cookie") or []:
        found = re.match(r"agora_reader=([^;]+)", header)
        if found:
            print(found.group(1))
            return
    sys.exit("fuzz-reader: signing in set no agora_reader cookie")


if __name__ == "__main__":
    main()
