#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for a LAVA server's REST API v0.2, for the tests of
scripts/lava/lab-client.py only (tests/cli/lab_client.t): the answers a
real server gives, in the shapes lava_rest_app/v02 gives them, scripted.

  stub_lava.py PORTFILE TOKEN RESULT.json SCRIPT

Listens on 127.0.0.1, a free port written to PORTFILE. TOKEN is the one
it accepts ("Authorization: Token TOKEN"; else 401). Device type "qemu",
devices qemu01 and qemu02. SCRIPT says what each submitted job does, in
order, comma-separated (the last one repeats): complete (finished,
Complete, RESULT.json in its log as latctl's LAVA test prints it),
incomplete, canceled, never (stays Running), queued (stays Submitted, no
device), nolog (Complete, no result
in the log), badjson (its status is not JSON). Every request is appended
to PORTFILE.log ("METHOD PATH").
"""
import base64
import gzip
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORTFILE, TOKEN, RESULT, SCRIPT = sys.argv[1:5]
STEPS = SCRIPT.split(",")
JOBS = {}


def result_log():
    with open(RESULT, "rb") as f:
        b64 = base64.b64encode(gzip.compress(f.read())).decode()
    lines = ["LATCTL-RESULT-BEGIN r.json"] + [b64[i:i + 76] for i in range(0, len(b64), 76)]
    lines.append("LATCTL-RESULT-END")
    return lines


def log_of(step):
    msgs = ["boot", "latctl run grow"]
    if step == "complete":
        msgs += result_log()
    return "".join('- {"dt": "2026-12-07T00:00:00", "lvl": "target", "msg": %s}\n' % json.dumps(m)
                   for m in msgs)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, code, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        with open(PORTFILE + ".log", "a", encoding="utf-8") as f:
            f.write("%s %s\n" % (self.command, self.path))
        if self.headers.get("Authorization") != "Token " + TOKEN:
            self.reply(401, {"detail": "Invalid token."})
            return False
        return True

    def do_GET(self):
        if not self.authorized():
            return
        p = self.path.split("?")[0].strip("/").split("/")[2:]  # after api/v0.2
        if p == ["devicetypes", "qemu"]:
            return self.reply(200, {"name": "qemu", "display": True})
        if p[:1] == ["devicetypes"]:
            return self.reply(404, {"detail": "Not found."})
        if p == ["devices"]:
            devs = [{"hostname": h, "device_type": "qemu", "health": "Good", "state": "Idle"}
                    for h in ("qemu01", "qemu02")]
            return self.reply(200, {"count": 2, "results": devs})
        if len(p) >= 2 and p[0] == "jobs" and p[1].isdigit() and int(p[1]) in JOBS:
            return self.job(int(p[1]), p[2:])
        return self.reply(404, {"detail": "Not found."})

    def job(self, job_id, rest):
        step = JOBS[job_id]
        device = "qemu0%d" % (1 + job_id % 2)
        if rest == ["cancel"]:
            JOBS[job_id] = "canceled"
            return self.reply(200, {"message": "Job cancel signal sent."})
        if rest == ["logs"]:
            return self.reply(200, log_of(step), "application/yaml")
        if step == "badjson":
            return self.reply(200, "<html>Server Error</html>", "text/html")
        if step == "queued":
            device = None
        state, health = {"never": ("Running", "Unknown"), "queued": ("Submitted", "Unknown"),
                         "incomplete": ("Finished", "Incomplete"),
                         "canceled": ("Finished", "Canceled")}.get(step, ("Finished", "Complete"))
        return self.reply(200, {"id": job_id, "state": state, "health": health,
                                "actual_device": device})

    def do_POST(self):
        if not self.authorized():
            return
        n = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(n) or b"{}")
        if "definition" not in body:
            return self.reply(400, {"message": "job submission failed: no definition."})
        job_id = 100 + len(JOBS)
        JOBS[job_id] = STEPS[min(len(JOBS), len(STEPS) - 1)]
        return self.reply(201, {"message": "job(s) successfully submitted", "job_ids": [job_id]})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w", encoding="utf-8") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402  (the port file appears whole)
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
