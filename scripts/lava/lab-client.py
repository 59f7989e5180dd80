#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The bisect's client of a LAVA server: its REST API v0.2, nothing else.

  lab-client.py check --url URL --device-type TYPE
  lab-client.py boot --url URL --job JOB.yaml --out DIR [--retries N]
                     [--deadline SECONDS] [--queue-deadline SECONDS]
                     [--poll SECONDS]

The token comes from $LATCTL_LAVA_TOKEN or the file $LATCTL_LAVA_TOKEN_FILE
(never the command line, where every user of the machine would see it).

check: the server answers, the token is accepted, the device type exists
and has a device that is not retired. Exit 0, or 128 with one line: a
wrong URL, token or device type stops a bisect before anything is built.

boot: submit JOB.yaml, wait for the job (polling: at most --deadline
seconds once it has started, --queue-deadline before; then cancel it),
take its log and the latctl results in it
(scripts/lava/lava-results.pl --json DIR). A job that ends Incomplete or
Canceled, one past its deadline, a device gone offline or a log without a
result is infrastructure, not a verdict: the job is submitted again (the
scheduler gives it a device that is free), up to --retries more times;
then exit 125 with the job ids and the reasons. Exit 0: DIR holds the results, and DIR/job.json
says the job, its device, its health and the jobs tried before it.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

SKIP, STOP = 125, 128
HERE = os.path.dirname(os.path.abspath(__file__))


class LabError(Exception):
    """A request the server refused or did not answer: (code, line)."""

    def __init__(self, code, line):
        super().__init__(line)
        self.code = code


def token():
    tok = os.environ.get("LATCTL_LAVA_TOKEN", "")
    path = os.environ.get("LATCTL_LAVA_TOKEN_FILE", "")
    if not tok and path:
        try:
            with open(path, encoding="utf-8") as f:
                tok = f.read().strip()
        except OSError as e:
            raise LabError(STOP, "cannot read the token file %s: %s" % (path, e.strerror))
    if not tok:
        raise LabError(STOP, "no token: set LATCTL_LAVA_TOKEN or LATCTL_LAVA_TOKEN_FILE")
    return tok


class Lab:
    def __init__(self, url, timeout=30):
        self.base = url.rstrip("/") + "/api/v0.2/"
        self.url = url
        self.auth = "Token " + token()
        self.timeout = timeout

    def request(self, method, path, body=None, raw=False):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", self.auth)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                text = r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            if e.code in (401, 403):
                raise LabError(STOP, "%s refused the token (HTTP %d)" % (self.url, e.code))
            raise LabError(e.code, "%s %s: HTTP %d" % (method, path, e.code))
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise LabError(0, "%s does not answer: %s" % (self.url, reason))
        if raw:
            return text
        try:
            return json.loads(text)
        except ValueError:
            raise LabError(0, "%s %s: not JSON (%s...)" % (method, path, text[:40].strip()))


def check(lab, device_type):
    try:
        lab.request("GET", "devicetypes/%s/" % device_type)
    except LabError as e:
        if e.code == 404:
            raise LabError(STOP, "%s has no device type %s" % (lab.url, device_type))
        raise
    devs = lab.request("GET", "devices/?device_type=%s" % device_type)
    usable = [d for d in devs.get("results", []) if d.get("health") != "Retired"]
    if not usable:
        raise LabError(STOP, "%s has no device of type %s that is not retired" % (lab.url, device_type))
    return [d.get("hostname", "?") for d in usable]


QUEUED = ("Submitted", "Scheduling", "Scheduled")


def wait(lab, job_id, deadline, queue_deadline, poll):
    """The job's final (health, device), or health "Timeout" (running past
    deadline seconds) or "Queued" (not started within queue_deadline)."""
    now = time.monotonic()
    queue_end, run_end = now + queue_deadline, None
    while True:
        j = lab.request("GET", "jobs/%d/" % job_id)
        state, now = j.get("state"), time.monotonic()
        if state == "Finished":
            return j.get("health", "Unknown"), j.get("actual_device") or "?"
        if state not in QUEUED and run_end is None:
            run_end = now + deadline
        late = "Queued" if run_end is None and now >= queue_end else None
        if run_end is not None and now >= run_end:
            late = "Timeout"
        if late:
            try:
                lab.request("GET", "jobs/%d/cancel/" % job_id)
            except LabError:
                pass
            return late, j.get("actual_device") or "?"
        time.sleep(poll)


def results(lab, job_id, out):
    """Write the job's log and the results in it into out; the result files."""
    log = lab.request("GET", "jobs/%d/logs/" % job_id, raw=True)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "job-%d.log" % job_id)
    with open(path, "w", encoding="utf-8") as f:
        f.write(log)
    p = subprocess.run(["perl", os.path.join(HERE, "lava-results.pl"), "--json", out, path],
                       capture_output=True, text=True)
    return [l for l in p.stdout.splitlines() if l.endswith(".json") and os.path.isfile(l)]


def submit(lab, definition):
    r = lab.request("POST", "jobs/", {"definition": definition})
    ids = r.get("job_ids") if isinstance(r, dict) else None
    if not ids:
        raise LabError(0, "the server took the job but gave no id: %s" % json.dumps(r)[:80])
    return int(ids[0])


def boot(lab, args):
    with open(args.job, encoding="utf-8") as f:
        definition = f.read()
    tried = []
    for attempt in range(args.retries + 1):
        try:
            job_id = submit(lab, definition)
            health, device = wait(lab, job_id, args.deadline, args.queue_deadline, args.poll)
            files = results(lab, job_id, args.out) if health == "Complete" else []
        except LabError as e:
            if e.code == STOP:
                raise
            tried.append({"job": None, "device": None, "why": str(e)})
            continue
        why = None
        if health != "Complete":
            why = {"Timeout": "not finished within %d s of its start (canceled)" % args.deadline,
                   "Queued": "not started within %d s (canceled)" % args.queue_deadline}.get(
                health, "ended %s" % health)
        elif not files:
            why = "no latctl result in its log"
        if why is None:
            with open(os.path.join(args.out, "job.json"), "w", encoding="utf-8") as f:
                json.dump({"job": job_id, "device": device, "health": health,
                           "url": lab.url, "results": files, "retried": tried}, f, indent=1)
            print("lab: job %d on %s: %s, %d result(s)%s" % (
                job_id, device, health, len(files),
                "; after %s" % ", ".join(describe(t) for t in tried) if tried else ""))
            return 0
        tried.append({"job": job_id, "device": device, "why": why})
    raise LabError(SKIP, "no result after %d job(s): %s" % (len(tried), ", ".join(describe(t) for t in tried)))


def describe(t):
    if t["job"] is None:
        return t["why"]
    if t["device"] in (None, "?"):
        return "job %d %s" % (t["job"], t["why"])
    return "job %d on %s %s" % (t["job"], t["device"], t["why"])


def main():
    ap = argparse.ArgumentParser(prog="lab-client.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--url", required=True)
    c.add_argument("--device-type", required=True)
    b = sub.add_parser("boot")
    b.add_argument("--url", required=True)
    b.add_argument("--job", required=True)
    b.add_argument("--out", required=True)
    b.add_argument("--retries", type=int, default=2)
    b.add_argument("--deadline", type=int, default=3600)
    b.add_argument("--queue-deadline", type=int, default=3600)
    b.add_argument("--poll", type=float, default=10)
    args = ap.parse_args()
    try:
        lab = Lab(args.url)
        if args.cmd == "check":
            try:
                devs = check(lab, args.device_type)
            except LabError as e:
                raise LabError(STOP, str(e))
            print("lab: %s: device type %s, %d device(s): %s" % (
                args.url, args.device_type, len(devs), " ".join(devs)))
            return 0
        return boot(lab, args)
    except LabError as e:
        print("lab-client: %s" % e, file=sys.stderr)
        return e.code if e.code in (SKIP, STOP) else SKIP


if __name__ == "__main__":
    sys.exit(main())
