"""A real SMTP server on loopback for the tests: stores every message it accepts as a file.

usage: smtp-sink.py PORT OUTDIR
"""
import asyncio
import os
import sys
import uuid

from aiosmtpd.controller import Controller

port, outdir = int(sys.argv[1]), sys.argv[2]
os.makedirs(outdir, exist_ok=True)


class Sink:
    async def handle_DATA(self, server, session, envelope):
        name = os.path.join(outdir, f"{uuid.uuid4().hex}.eml")
        with open(name + ".tmp", "wb") as f:
            f.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n")
            f.write(envelope.original_content or envelope.content)
        os.rename(name + ".tmp", name)
        return "250 OK"


controller = Controller(Sink(), hostname="127.0.0.1", port=port)
controller.start()
print("ready", flush=True)
try:
    asyncio.get_event_loop().run_forever()
except KeyboardInterrupt:
    pass
finally:
    controller.stop()
