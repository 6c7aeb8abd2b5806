#!/usr/bin/env python3
"""make chaos-hub: machines of two users edit and sync through two hubs on one PostgreSQL
while a seeded run of faults hits them: syncs killed at random moments, hubs killed and
started again, PostgreSQL stopped (-m immediate) and started again, the database restored
from an older pg_dump, hostile pushes. Then every machine syncs until nothing moves, and
the run checks that

- every machine of a user is identical (gallery, every creation's history, exports),
- every edit a `memery` command acknowledged is on every machine of its user (the ledger:
  each edit sets a caption no other edit sets, so finding it finds the edit),
- `memery verify` is clean everywhere, and no account is wedged (a new machine logs in
  and syncs everything).

It prints the counts and exits non-zero on any failure. `make test` runs a short seeded
run (Tests/chaos); `make chaos-hub` a long one (FAULTS, MINUTES, SEED)."""

import argparse
import glob
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("MEMERY_BIN", os.path.join(ROOT, ".build", "debug", "memery"))
PASSWORD = "chaos is a ladder"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(*command):
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(prefix + list(command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/tmp")


class Cluster:
    """A throwaway PostgreSQL on a free loopback port, as the unprivileged postgres user."""

    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("PostgreSQL's initdb is absent (scripts/bootstrap installs Debian's postgresql)")
        self.bin = os.path.dirname(found[-1])
        self.folder = tempfile.mkdtemp(prefix="memery-chaos-pg-", dir="/tmp")
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.port = free_port()
        self.data = os.path.join(self.folder, "data")
        as_postgres(f"{self.bin}/initdb", "-D", self.data, "-A", "trust", "-U", "memery", "--no-sync", "-E", "UTF8")
        self.start()
        self.psql("postgres", "CREATE DATABASE hub")
        self.database = f"postgres://memery@127.0.0.1:{self.port}/hub?sslmode=disable"

    def start(self):
        as_postgres(f"{self.bin}/pg_ctl", "-D", self.data, "-w", "-l", os.path.join(self.folder, "log"), "-o",
                    f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start")

    def stop(self):
        as_postgres(f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def psql(self, database, sql):
        return subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "memery", "-d", database, "-q", "-A", "-t", "-c", sql],
                              check=True, capture_output=True, text=True).stdout.strip()

    def dump(self):
        path = os.path.join(tempfile.gettempdir(), f"memery-chaos-{random.getrandbits(32):08x}.pgdump")
        subprocess.run([f"{self.bin}/pg_dump", "-h", "127.0.0.1", "-p", str(self.port), "-U", "memery", "-Fc", "-f", path, "hub"],
                       check=True, capture_output=True)
        return path

    def restore(self, path):
        self.psql("postgres", "DROP DATABASE hub WITH (FORCE)")
        self.psql("postgres", "CREATE DATABASE hub")
        subprocess.run([f"{self.bin}/pg_restore", "-h", "127.0.0.1", "-p", str(self.port), "-U", "memery", "-d", "hub", "--exit-on-error", path],
                       check=True, capture_output=True)

    def remove(self):
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Hub:
    def __init__(self, database, port=0):
        self.database = database
        self.process = subprocess.Popen([BINARY, "hub", "--database", database, "--port", str(port), "--bcrypt-cost", "4", "--log-level", "error"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if "http://" not in line:
            raise RuntimeError(f"memery hub did not start: {line!r}")
        self.address = line.split()[-1]
        self.port = int(self.address.rsplit(":", 1)[1])

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def restart(self):
        self.kill()
        for _ in range(50):  # the port is free again once the old process is gone
            try:
                fresh = Hub(self.database, self.port)
                self.process, self.address = fresh.process, fresh.address
                return
            except RuntimeError:
                time.sleep(0.1)
        raise RuntimeError("a hub could not start again on its port")


class Machine:
    def __init__(self, name, user, hub, root):
        self.name, self.user, self.hub = name, user, hub
        self.store = os.path.join(root, name)

    def run(self, *args, stdin=None, timeout=120):
        return subprocess.run([BINARY, *args, "--store", self.store], input=stdin, capture_output=True, text=True, timeout=timeout)

    def login(self, sign_up):
        args = ["account", "signup", self.hub.address, "--user", self.user] if sign_up else ["login", self.hub.address, "--user", self.user]
        out = self.run(*args, "--password-stdin", stdin=PASSWORD + "\n")
        if out.returncode != 0:
            raise RuntimeError(f"{self.name}: {' '.join(args)}: {out.stderr}")

    def sync_killed(self, rng):
        process = subprocess.Popen([BINARY, "sync", "--store", self.store], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, 0.6))
        process.send_signal(signal.SIGKILL)
        process.wait()


def hostile_push(hub, machine, rng):
    """A push the engine cannot read (garbage payload, impossible time, unknown type): 422."""
    token = json.load(open(os.path.join(machine.store, "hub", "login.json")))["token"]
    import hashlib
    import struct
    import uuid
    event_id = str(uuid.uuid4())
    kind = rng.choice(["garbage", "time", "type"])
    event_type, payload, time_ms = "TextLayerEdited", '{"id":"L1","text":"x"}', int(time.time() * 1000)
    if kind == "garbage":
        payload = "not json"
    elif kind == "time":
        time_ms = 2**63 - 1
    else:
        event_type = "Bogus Type!"
    fields = [event_id, event_id, str(uuid.uuid4()), "", event_type, "1", str(time_ms), payload, ""]
    digest = hashlib.sha256()
    for field in fields:
        data = field.encode()
        digest.update(struct.pack(">Q", len(data)) + data)
    body = json.dumps({"key": event_id, "seen": 0, "events": [{
        "id": event_id, "batch": event_id, "stream": fields[2], "parent": None, "type": event_type, "schemaVersion": 1,
        "time": time_ms, "payload": payload, "blobs": [], "checksum": digest.hexdigest()}]}).encode()
    request = urllib.request.Request(hub.address + "/v1/events", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        urllib.request.urlopen(request, timeout=30)
        return 200
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0  # the hub or its database is down at this moment: no harm either way


def run(seed=1, faults=30, minutes=None, verbose=True):
    rng = random.Random(seed)
    say = print if verbose else (lambda *a, **k: None)
    root = tempfile.mkdtemp(prefix="memery-chaos-")
    cluster = Cluster()
    hubs = [Hub(cluster.database), Hub(cluster.database)]
    counts = {"faults": 0, "sync-kills": 0, "hub-kills": 0, "postgres-stops": 0, "restores": 0, "hostile-pushes": 0,
              "edits": 0, "refused-edits": 0, "syncs": 0, "failed-syncs": 0}
    problems = []
    dumps = []
    try:
        machines = []
        for user in ["ada", "bob"]:
            for index in range(3):
                machine = Machine(f"{user}{index}", user, hubs[index % 2], root)
                machine.login(sign_up=index == 0)
                machines.append(machine)
        ledger = {}  # user: {creation: [captions acknowledged]}
        serial = 0
        deadline = time.monotonic() + minutes * 60 if minutes else None

        def edit(machine):
            nonlocal serial
            serial += 1
            names = sorted({name for name in ledger.get(machine.user, {})})
            if not names or rng.random() < 0.15:
                name = f"m{serial}"
                out = machine.run("new", name, "--canvas", "60x40")
                if out.returncode != 0:
                    counts["refused-edits"] += 1
                    return
                ledger.setdefault(machine.user, {}).setdefault(name, [])
            name = rng.choice(sorted(ledger[machine.user]))
            caption = f"E{serial}"
            out = machine.run("text", name, "--top", caption)
            if out.returncode == 0:
                ledger[machine.user][name].append(caption)
                counts["edits"] += 1
            else:
                counts["refused-edits"] += 1  # a name this machine does not have yet, say: not acknowledged

        def sync(machine):
            counts["syncs"] += 1
            out = machine.run("sync")
            if out.returncode != 0:
                counts["failed-syncs"] += 1
            return out

        while counts["faults"] < faults or (deadline and time.monotonic() < deadline):
            for _ in range(rng.randint(1, 4)):
                edit(rng.choice(machines))
            if rng.random() < 0.5:
                sync(rng.choice(machines))
            fault = rng.choice(["sync-kill", "sync-kill", "hub-kill", "postgres-stop", "restore", "hostile", "dump"])
            if fault == "dump":
                dumps.append(cluster.dump())
                continue
            counts["faults"] += 1
            if fault == "sync-kill":
                rng.choice(machines).sync_killed(rng)
                counts["sync-kills"] += 1
            elif fault == "hub-kill":
                rng.choice(hubs).restart()
                counts["hub-kills"] += 1
            elif fault == "postgres-stop":
                cluster.stop()
                # A sync meets a hub without its database (and is killed: a hub answers 503 only
                # after its 30 s deadline, which `memery sync` would wait out).
                rng.choice(machines).sync_killed(rng)
                cluster.start()
                counts["postgres-stops"] += 1
            elif fault == "restore":
                if not dumps:
                    dumps.append(cluster.dump())
                for hub in hubs:
                    hub.kill()
                cluster.restore(rng.choice(dumps))
                for hub in hubs:
                    hub.restart()
                counts["restores"] += 1
            elif fault == "hostile":
                status = hostile_push(rng.choice(hubs), rng.choice(machines), rng)
                if status not in (422, 0):
                    problems.append(f"a hostile push was answered {status}, not 422")
                counts["hostile-pushes"] += 1
            if deadline and time.monotonic() > deadline and counts["faults"] >= faults:
                break

        # Quiet: every machine syncs until a whole round moves nothing.
        for _ in range(8):
            moved = False
            for machine in machines:
                out = sync(machine)
                if out.returncode != 0:
                    problems.append(f"{machine.name}: sync failed after the faults: {out.stderr.strip()}")
                elif "up 0 creations, 0 events" not in out.stdout or "down 0 creations, 0 events" not in out.stdout:
                    moved = True
            if not moved:
                break

        # A new machine of each user logs in and gets everything: no account is wedged.
        for user in ["ada", "bob"]:
            fresh = Machine(f"{user}-new", user, hubs[0], root)
            fresh.login(sign_up=False)
            if sync(fresh).returncode != 0:
                problems.append(f"a new machine of {user} could not sync")
            machines.append(fresh)

        for user in ["ada", "bob"]:
            mine = [m for m in machines if m.user == user]
            views = {}
            for machine in mine:
                verified = machine.run("verify")
                if verified.returncode != 0:
                    problems.append(f"{machine.name}: verify: {verified.stdout.strip()}")
                listed = machine.run("list", "--json")
                gallery = sorted(item["name"] for item in json.loads(listed.stdout or "[]")) if listed.returncode == 0 else None
                histories = {}
                for name in gallery or []:
                    history = machine.run("history", name, "--json")
                    histories[name] = history.stdout
                views[machine.name] = (gallery, histories)
            first = views[mine[0].name]
            for machine in mine[1:]:
                if views[machine.name] != first:
                    problems.append(f"{machine.name} differs from {mine[0].name}")
            # The ledger: every acknowledged caption, in its creation's history, on every machine.
            all_history = "".join(first[1].values())
            # (In the JSON the summary's quotes are escaped: text \"E12\".)
            missing = [c for captions in ledger.get(user, {}).values() for c in captions if f'\\"{c}\\"' not in all_history]
            if missing:
                problems.append(f"{len(missing)} acknowledged edits of {user} are missing: {missing[:10]}")
        counts["acknowledged-edits"] = sum(len(c) for u in ledger.values() for c in u.values())
        say("chaos-hub: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
        for problem in problems:
            say("FAIL: " + problem)
        return counts, problems
    finally:
        for hub in hubs:
            hub.kill()
        cluster.remove()
        for dump in dumps:
            try:
                os.remove(dump)
            except OSError:
                pass
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SEED", "1")))
    parser.add_argument("--faults", type=int, default=int(os.environ.get("FAULTS", "250")))
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("MINUTES", "0")) or None)
    args = parser.parse_args()
    _, problems = run(seed=args.seed, faults=args.faults, minutes=args.minutes)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
